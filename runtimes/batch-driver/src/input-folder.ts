import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Input files under `dir` (sub-folders too, hidden ones left out) with one of `extensions`, as paths relative to it, sorted. */
export function listInputs(dir: string, extensions: string[], skip?: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip && join(dir, path) === skip) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && extensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) found.push(path);
    }
  };
  walk("");
  return found.sort();
}
