import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inCheckout, sourcesOf } from "@svc/platform/bundle-sources";

/** Stands for the list of sources in the first build's main.js (see bundleCli). */
const SOURCES_MARK = "__SVC_BUNDLE_SOURCES__";
/** Stands for which of them `svc ls` and `svc model ls` are built from (see quickInputs). */
const QUICK_MARK = "__SVC_BUNDLE_QUICK__";
/** The module main.ts imports for `svc ls` and `svc model ls`: what it loads, and nothing else, is theirs. */
const QUICK_ENTRY = "cli/src/quick.ts";

/**
 * Builds the CLI of the checkout at `root` (its cli/src/main.ts) into root/cli/.bundle: one module
 * graph, minified, split so each command loads only what it needs. main.js is given SVC_BUNDLE, what
 * it was built from (cli/src/bundle-check.ts), so it runs the sources when one of them changed since.
 * Returns how many sources it watches and what `svc ls` and `svc model ls` load (every input of
 * their chunks, node_modules' too), or the build's messages when it failed (no bundle then).
 */
export async function bundleCli(root: string, out = join(root, "cli", ".bundle")): Promise<{ sources: number; quickInputs: string[] } | { failed: string[] }> {
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
    define: { "globalThis.SVC_BUNDLE": JSON.stringify({ built, sources: SOURCES_MARK, quick: QUICK_MARK }) },
  });
  if (!result.success) {
    rmSync(staging, { recursive: true, force: true });
    return { failed: result.logs.map(String) };
  }
  const metafile = result.metafile!;
  const sources = [...sourcesOf(root, Object.keys(metafile.inputs))].sort();
  const quickLoads = quickInputs(root, metafile.outputs);
  const quick = sourcesOf(root, quickLoads);
  const main = join(staging, "main.js");
  let text = readFileSync(main, "utf8");
  for (const mark of [SOURCES_MARK, QUICK_MARK]) {
    const uses = text.split(JSON.stringify(mark)).length - 1;
    if (uses !== 1) {
      rmSync(staging, { recursive: true, force: true });
      return { failed: [`cli/src/main.ts must read SVC_BUNDLE once (found ${uses} uses of ${mark} in main.js).`] };
    }
  }
  // The quick listings' sources as places in the list: main.js is read at every start.
  text = text.replace(JSON.stringify(SOURCES_MARK), JSON.stringify(sources));
  text = text.replace(JSON.stringify(QUICK_MARK), JSON.stringify(sources.flatMap((path, i) => (quick.has(path) ? [i] : []))));
  writeFileSync(main, text);
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  return { sources: sources.length, quickInputs: quickLoads.map((input) => inCheckout(root, input)) };
}

type Outputs = NonNullable<Awaited<ReturnType<typeof Bun.build>>["metafile"]>["outputs"];

/**
 * The inputs of what `svc ls` and `svc model ls` load: main.js, QUICK_ENTRY's chunk and every
 * chunk those import. A change anywhere else (another command's code) leaves their code as it was
 * built, so they check only these (bundle-check.ts).
 */
function quickInputs(root: string, outputs: Outputs): string[] {
  const byPath = new Map(Object.entries(outputs).map(([path, output]) => [path.replace(/^\.\//, ""), output]));
  const isQuickEntry = (entry: string | undefined) => entry !== undefined && inCheckout(root, entry) === QUICK_ENTRY;
  const pending = [...byPath].filter(([path, output]) => path === "main.js" || isQuickEntry(output.entryPoint)).map(([path]) => path);
  const loaded = new Set<string>();
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    const output = byPath.get(path)!;
    // main.js's own imports are every command's: the quick ones were taken above.
    if (path !== "main.js") pending.push(...output.imports.map((imported) => imported.path.replace(/^\.\//, "")).filter((imported) => byPath.has(imported)));
  }
  return [...loaded].flatMap((path) => Object.keys(byPath.get(path)!.inputs));
}
