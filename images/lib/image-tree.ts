import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { dependencyClosure } from "./dependency-closure";

/** A file or symlink to place in the image under /app (or elsewhere, for `target` paths). */
export type TreeEntry = { target: string; source: string } | { target: string; symlink: string };

// Sources and bundles inside installed packages that the prebuilt binaries do not need.
const SKIPPED = [/^runtimes\/[^/]+\/(test|src\/testing)\//, /^node_modules\/node-llama-cpp\/llama\/gitRelease\.bundle$/, /^node_modules\/@fugood\/whisper\.node\/(whisper\.cpp|src)\//, /(^|\/)\.cache\//];

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue; // nested packages come from the closure
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile() || entry.isSymbolicLink()) files.push(path);
  }
  return files;
}

/**
 * What goes into /app for some workspaces: their own files and every installed package they need,
 * at the same relative paths as in the repository, so `bun <workspace>/src/main.ts` resolves its
 * imports in the image exactly as it does in the checkout. Tests, `skip` matches and the packages
 * named in `leaveOut` (optional ones the image does without) stay out.
 */
export function workspaceTree(root: string, workspaces: string[], skip: RegExp[] = [], leaveOut: string[] = []): TreeEntry[] {
  const entries = new Map<string, TreeEntry>();
  const addDir = (dir: string, targetDir: string) => {
    for (const file of listFiles(dir)) {
      const target = join(targetDir, relative(dir, file));
      if ([...SKIPPED, ...skip].some((pattern) => pattern.test(target))) continue;
      if (/\.test\.ts$/.test(target)) continue;
      const stat = lstatSync(file);
      entries.set(target, stat.isSymbolicLink() ? { target, source: realpathSync(file) } : { target, source: file });
    }
  };
  for (const workspace of workspaces) {
    const workspaceDir = join(root, workspace);
    addDir(workspaceDir, workspace);
    for (const pkg of dependencyClosure(root, workspaceDir).filter((found) => !leaveOut.includes(found.name))) {
      const linkTarget = relative(root, pkg.linkPath);
      const realTarget = relative(root, pkg.dir);
      addDir(pkg.dir, realTarget);
      // A workspace package: its folder, plus the node_modules link npm made to it.
      if (linkTarget !== realTarget) entries.set(linkTarget, { target: linkTarget, symlink: relative(join(linkTarget, ".."), realTarget) });
    }
  }
  return [...entries.values()].sort((a, b) => a.target.localeCompare(b.target));
}

/** What goes into /app for a runtime: `bun runtimes/<name>/src/main.ts` runs there as it does bare. */
export function runtimeTree(root: string, runtime: string): TreeEntry[] {
  return workspaceTree(root, [join("runtimes", runtime)]);
}
