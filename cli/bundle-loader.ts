/**
 * The script `./svc` starts, `cli/.bundle/run.js`, written by `bun cli/bundle.ts`. It runs the bundle
 * while every source the bundle was built from (and each folder holding one, so an added or removed
 * file counts) is no newer than the build, else the sources; `svc start` always runs the sources,
 * which start the services from theirs. Checking is one stat per source (well under a millisecond),
 * so `./svc` itself needs no `find` and forks nothing.
 */

/**
 * The loader's text. `sources` are paths relative to the checkout (files and folders); `builtMs` the
 * modification time of a file written just before the build (the same clock as the sources', so a
 * source saved while the build ran counts as newer). The loader sits two folders below the checkout.
 */
export function loaderSource(sources: string[], builtMs: number): string {
  return `// @bun
// Written by cli/bundle.ts (see cli/bundle-loader.ts); rebuilt by \`npm install\` or \`bun cli/bundle.ts\`.
const root = import.meta.dir + "/../../";
const sources = ${JSON.stringify(sources)};
const stale = process.argv[2] === "start" || sources.some((path) => Bun.file(root + path).lastModified > ${builtMs});
await import(stale ? root + "cli/src/main.ts" : "./main.js");
`;
}
