/**
 * What a bundle that `npm install` builds (the CLI's, the components') was built from, and whether
 * one of those sources changed since: a bundle is used only while it is current, so an edit is never
 * hidden by a stale bundle.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A path as a build's metafile names it (relative to the working folder, which need not be `root`), relative to `root`. */
export const inCheckout = (root: string, input: string) => relative(root, resolve(process.cwd(), input));

/**
 * What a bundle built from `inputs` (as the metafile names them) must be checked against: every
 * workspace source among them, each folder from it up to its package's src folder (a file added or
 * removed there changes the folder's time), each such package's package.json, and the checkout's
 * package.json and tsconfig.json. Relative to `root`.
 */
export function sourcesOf(root: string, inputs: Iterable<string>): Set<string> {
  const sources = new Set<string>(["package.json", "tsconfig.json"].filter((file) => existsSync(join(root, file))));
  for (const input of inputs) {
    const path = inCheckout(root, input);
    if (path.startsWith("node_modules/") || path.startsWith("..") || !path.includes("/src/")) continue;
    const pkg = path.slice(0, path.indexOf("/src/"));
    sources.add(path).add(`${pkg}/package.json`);
    for (let dir = dirname(path); dir.startsWith(`${pkg}/src`); dir = dirname(dir)) sources.add(dir);
  }
  return sources;
}

/** Whether a source (relative to `root`) is newer than `built` or gone: one stat each. */
export const changedSince = (root: string, sources: string[], built: number) =>
  sources.some((path) => {
    const modified = Bun.file(join(root, path)).lastModified;
    return !(modified > 0) || modified > built;
  });
