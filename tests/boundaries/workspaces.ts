import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Workspace {
  /** Folder relative to the repository root, e.g. `runtimes/common`. */
  dir: string;
  name: string;
  /** The package.json `exports` map (a string export counts as `.`). */
  exports: Record<string, string>;
  /** Every package named in its dependencies of any kind. */
  dependsOn: Set<string>;
}

/** The workspace packages the root package.json lists, read from their package.json files. */
export function readWorkspaces(root: string): Workspace[] {
  const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] };
  return rootManifest.workspaces.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    const exports = typeof manifest.exports === "string" ? { ".": manifest.exports } : (manifest.exports ?? {});
    const dependsOn = new Set<string>(["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((key) => Object.keys(manifest[key] ?? {})));
    return { dir, name: manifest.name, exports, dependsOn };
  });
}

/** The package whose folder holds `file` (the deepest one), or undefined for code outside every package. */
export function packageOf(workspaces: Workspace[], file: string): Workspace | undefined {
  return workspaces
    .filter((w) => file === w.dir || file.startsWith(`${w.dir}/`))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
}

const STATIC = /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Module specifiers of a TypeScript source's import and export statements and dynamic imports, in order. */
export function specifiers(source: string): string[] {
  const found: { at: number; specifier: string }[] = [];
  for (const pattern of [STATIC, BARE, DYNAMIC]) {
    for (const match of source.matchAll(pattern)) found.push({ at: match.index ?? 0, specifier: match[1] });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.specifier);
}
