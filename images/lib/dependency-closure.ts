import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** A package the runtime needs at run time, as found in the repository's installed tree. */
export interface InstalledPackage {
  name: string;
  /** Real folder of the package. */
  dir: string;
  /** Where npm put it (a workspace package is a symlink there, e.g. node_modules/@svc/x). */
  linkPath: string;
}

// Prebuilt variants the CPU runtimes never load here (GPU, other OSes and CPUs, WASM).
const OTHER_CPUS = process.arch === "arm64" ? "x64|armv7|riscv" : "arm|riscv";
const FOREIGN_VARIANT = new RegExp(`(cuda|vulkan|wasm|${OTHER_CPUS}|mac-|win-|darwin|musl|metal)`);
// Peer dependencies that only matter when type-checking.
const TYPE_ONLY = /^(@types\/|typescript$)/;

function readManifest(dir: string): Record<string, Record<string, string> | undefined> {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

/** Node's lookup: node_modules/<name> in the requiring folder, then in each parent up to the root. */
function locate(name: string, fromDir: string, root: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/**
 * Every installed package reachable from the workspace `workspaceDir` through dependencies,
 * installed optional dependencies for this platform, and runtime peer dependencies.
 */
export function dependencyClosure(root: string, workspaceDir: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visit = (dir: string) => {
    const manifest = readManifest(dir);
    const wanted = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}).filter((name) => !FOREIGN_VARIANT.test(name)),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !TYPE_ONLY.test(name)),
    ];
    for (const name of wanted) {
      const linkPath = locate(name, dir, root);
      if (!linkPath) {
        if (manifest.dependencies?.[name]) throw new Error(`${name} (needed by ${relative(root, dir)}) is not installed: run npm install`);
        continue;
      }
      if (found.has(linkPath)) continue;
      const realDir = realpathSync(linkPath);
      found.set(linkPath, { name, dir: realDir, linkPath });
      visit(realDir);
    }
  };
  visit(workspaceDir);
  return [...found.values()];
}
