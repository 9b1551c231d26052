/**
 * `bun cli/bundle.ts`: builds the CLI into cli/.bundle (one module graph, minified, split so each
 * command loads only what it needs), run by `npm install` (the root package's `prepare`). `./svc`
 * runs the bundle while no source folder it was built from changed since (`watched` lists them);
 * otherwise it runs the sources, so an edit is never hidden by a stale bundle.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const out = join(import.meta.dir, ".bundle");
const staging = `${out}.${process.pid}`;

// Written before the build: a source saved while it runs is newer than this and makes the bundle stale.
mkdirSync(staging, { recursive: true });
writeFileSync(join(staging, "stamp"), "");
const result = await Bun.build({ entrypoints: [join(import.meta.dir, "src", "main.ts")], target: "bun", minify: true, splitting: true, outdir: staging, metafile: true });
if (!result.success) {
  // `npm install` goes on: without a bundle ./svc runs the sources.
  for (const log of result.logs) console.error(log);
  rmSync(staging, { recursive: true, force: true });
  console.error("svc: the CLI was not bundled; ./svc runs it from its sources.");
  process.exit(0);
}
// The source folder and package.json of every workspace package that went in: `find -newer` in
// ./svc walks them, so a file added, removed or edited anywhere there makes the bundle stale.
const watched = new Set<string>();
for (const input of Object.keys(result.metafile!.inputs)) {
  const path = relative(root, join(root, input));
  if (path.startsWith("node_modules/") || path.startsWith("..") || !path.includes("/src/")) continue;
  const pkg = path.slice(0, path.indexOf("/src/"));
  watched.add(`${pkg}/src`).add(`${pkg}/package.json`);
}
writeFileSync(join(staging, "watched"), [...watched].sort().map((dir) => join(root, dir)).join("\n") + "\n");
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
console.log(`svc: CLI bundled into ${relative(root, out)} (watching ${watched.size} source folders and package files)`);
