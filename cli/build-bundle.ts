import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Stands for the list of sources in the first build's main.js (see bundleCli). */
const SOURCES_MARK = "__SVC_BUNDLE_SOURCES__";

/**
 * Builds the CLI of the checkout at `root` (its cli/src/main.ts) into root/cli/.bundle: one module
 * graph, minified, split so each command loads only what it needs. main.js is given SVC_BUNDLE, what
 * it was built from (cli/src/bundle-check.ts), so it runs the sources when one of them changed since.
 * Returns how many sources it watches, or the build's messages when it failed (no bundle then).
 */
export async function bundleCli(root: string): Promise<{ sources: number } | { failed: string[] }> {
  const out = join(root, "cli", ".bundle");
  const staging = `${out}.${process.pid}`;
  // Written before the build: a source saved while it runs is newer than this and makes the bundle stale.
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "stamp"), "");
  const built = Bun.file(join(staging, "stamp")).lastModified;
  const result = await Bun.build({
    entrypoints: [join(root, "cli", "src", "main.ts")],
    target: "bun",
    minify: true,
    splitting: true,
    outdir: staging,
    metafile: true,
    define: { "globalThis.SVC_BUNDLE": JSON.stringify({ built, sources: SOURCES_MARK }) },
  });
  if (!result.success) {
    rmSync(staging, { recursive: true, force: true });
    return { failed: result.logs.map(String) };
  }
  // Every workspace source that went in, each folder from it up to its package's src folder, each
  // such package's package.json, and the checkout's package.json and tsconfig.json.
  const sources = new Set<string>(["package.json", "tsconfig.json"].filter((file) => existsSync(join(root, file))));
  for (const input of Object.keys(result.metafile!.inputs)) {
    // The metafile names inputs relative to the working folder, which need not be `root`.
    const path = relative(root, resolve(process.cwd(), input));
    if (path.startsWith("node_modules/") || path.startsWith("..") || !path.includes("/src/")) continue;
    const pkg = path.slice(0, path.indexOf("/src/"));
    sources.add(path).add(`${pkg}/package.json`);
    for (let dir = dirname(path); dir.startsWith(`${pkg}/src`); dir = dirname(dir)) sources.add(dir);
  }
  const main = join(staging, "main.js");
  const text = readFileSync(main, "utf8");
  const mark = JSON.stringify(SOURCES_MARK);
  if (text.split(mark).length !== 2) {
    rmSync(staging, { recursive: true, force: true });
    return { failed: [`cli/src/main.ts must read SVC_BUNDLE once (found ${text.split(mark).length - 1} uses in main.js).`] };
  }
  writeFileSync(main, text.replace(mark, JSON.stringify([...sources].sort())));
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  return { sources: sources.size };
}
