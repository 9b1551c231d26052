import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** A file changed this recently may still be being copied in: it is left for a later scan. */
export const SETTLE_MS = 2000;

/**
 * Input files under `dir` (sub-folders too, hidden ones left out) with one of `extensions`, as
 * paths relative to it, sorted; `settling` counts those changed in the last SETTLE_MS, left out.
 */
export function listInputs(dir: string, extensions: string[], skip?: string, now = Date.now()): { inputs: string[]; settling: number } {
  const found: string[] = [];
  let settling = 0;
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
      else if (entry.isFile() && extensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) {
        let changed = 0;
        try {
          changed = statSync(join(dir, path)).mtimeMs;
        } catch {
          continue; // gone meanwhile
        }
        if (now - changed >= 0 && now - changed < SETTLE_MS) settling++;
        else found.push(path);
      }
    }
  };
  walk("");
  return { inputs: found.sort(), settling };
}
