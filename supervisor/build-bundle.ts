/**
 * Builds the processes `svc start` runs (the three services and the gateway) into one bundle,
 * supervisor/.bundle, split so each loads only its own code: a process then starts from a few
 * files instead of transpiling some 400 sources, about 0.12 CPU-second less each. Beside them,
 * origin.json says what they were built from (see src/components.ts, which runs the sources instead
 * while the bundle is not current).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BunPlugin } from "bun";
import { inCheckout, sourcesOf } from "@svc/platform/bundle-sources";
import { COMPONENT_NAMES, type BundleOrigin } from "./src/components";

/** Left to node_modules, as the sources use them: ssh2 (with optional native parts) loads at the first SSH connection; the UI's and the docs' files are found there by require.resolve, not loaded. */
const EXTERNAL = ["ssh2", "swagger-ui-dist", "htmx.org"];

/**
 * A source's own place, where it asks for it (`import.meta.dir` for its migrations, its assets, a
 * worker's file): in a bundle these would name the bundle's file, so they are written in as the
 * source's path. The bundle is used only in the checkout it was built in (origin.json's root).
 */
function sourcePlaces(root: string): BunPlugin {
  const filter = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(?!node_modules/).*\\.ts$`);
  return {
    name: "svc-source-places",
    setup(build) {
      build.onLoad({ filter }, async ({ path }) => {
        const text = await Bun.file(path).text();
        const places: Record<string, string> = { dir: dirname(path), dirname: dirname(path), path, filename: path, url: pathToFileURL(path).href };
        return { loader: "ts", contents: text.replace(/\bimport\.meta\.(dirname|dir|filename|path|url)\b/g, (_, key: string) => JSON.stringify(places[key])) };
      });
    },
  };
}

export async function bundleComponents(checkout: string, out = join(checkout, "supervisor", ".bundle")): Promise<{ sources: number } | { failed: string[] }> {
  const root = resolve(checkout);
  const staging = `${out}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Written before the build: a source saved while it runs is newer than this and makes the bundle stale.
  writeFileSync(join(staging, "stamp"), "");
  const built = Bun.file(join(staging, "stamp")).lastModified;
  const result = await Bun.build({
    entrypoints: COMPONENT_NAMES.map((name) => Bun.resolveSync(`@svc/${name}/main`, root)),
    root,
    target: "bun",
    splitting: true,
    outdir: staging,
    metafile: true,
    external: EXTERNAL,
    plugins: [sourcePlaces(root)],
  });
  if (!result.success) {
    rmSync(staging, { recursive: true, force: true });
    return { failed: result.logs.map(String) };
  }
  const sources = [...sourcesOf(root, Object.keys(result.metafile!.inputs))].sort();
  const entries = Object.fromEntries(
    Object.entries(result.metafile!.outputs).flatMap(([output, { entryPoint }]) => {
      const name = entryPoint && COMPONENT_NAMES.find((component) => inCheckout(root, entryPoint).startsWith(`${component}/`));
      return name ? [[name, output.replace(/^\.\//, "")]] : [];
    }),
  );
  const origin: BundleOrigin = { root, built, sources, entries };
  writeFileSync(join(staging, "origin.json"), JSON.stringify(origin));
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  return { sources: sources.length };
}
