/**
 * `bun cli/bundle.ts`: builds the CLI into cli/.bundle (one module graph, minified, split so each
 * command loads only what it needs), run by `npm install` (the root package's `prepare`). `./svc`
 * starts cli/.bundle/run.js, which runs the bundle while no source it was built from changed since
 * and the sources otherwise (bundle-loader.ts), so an edit is never hidden by a stale bundle.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { loaderSource } from "./bundle-loader";

const root = join(import.meta.dir, "..");
const out = join(import.meta.dir, ".bundle");
const staging = `${out}.${process.pid}`;

// Written before the build: a source saved while it runs is newer than this and makes the bundle stale.
mkdirSync(staging, { recursive: true });
writeFileSync(join(staging, "stamp"), "");
const builtMs = Bun.file(join(staging, "stamp")).lastModified;
const result = await Bun.build({ entrypoints: [join(import.meta.dir, "src", "main.ts")], target: "bun", minify: true, splitting: true, outdir: staging, metafile: true });
if (!result.success) {
  // `npm install` goes on: without a bundle ./svc runs the sources.
  for (const log of result.logs) console.error(log);
  rmSync(staging, { recursive: true, force: true });
  console.error("svc: the CLI was not bundled; ./svc runs it from its sources.");
  process.exit(0);
}
// Every workspace source that went in, each folder from it up to its package's src folder (a file
// added or removed there changes the folder's time), and each such package's package.json.
const sources = new Set<string>(["package.json", "tsconfig.json"]);
for (const input of Object.keys(result.metafile!.inputs)) {
  const path = relative(root, join(root, input));
  if (path.startsWith("node_modules/") || path.startsWith("..") || !path.includes("/src/")) continue;
  const pkg = path.slice(0, path.indexOf("/src/"));
  sources.add(path).add(`${pkg}/package.json`);
  for (let dir = dirname(path); dir.startsWith(`${pkg}/src`); dir = dirname(dir)) sources.add(dir);
}
writeFileSync(join(staging, "run.js"), loaderSource([...sources].sort(), builtMs));
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
console.log(`svc: CLI bundled into ${relative(root, out)} (${sources.size} sources and folders checked at each start)`);
