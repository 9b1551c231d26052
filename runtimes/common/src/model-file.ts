import { existsSync, openSync, readSync, closeSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function startsWith(path: string, magic: Uint8Array): boolean {
  const head = new Uint8Array(magic.length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.every((byte, i) => byte === magic[i]);
}

/**
 * Finds the model file in a snapshot folder: the path itself when it is a file, else the files
 * directly inside (symlinks to blobs are followed) whose first bytes are `magic`, preferring
 * `preferredExtension`. Throws a message fit for the log when there is none.
 */
export function findModelFile(snapshot: string, magic: Uint8Array, what: string, preferredExtension: string): string {
  if (!existsSync(snapshot)) throw new Error(`model path ${snapshot} does not exist`);
  if (statSync(snapshot).isFile()) {
    if (!startsWith(snapshot, magic)) throw new Error(`${snapshot} is not a ${what} file`);
    return snapshot;
  }
  const candidates = readdirSync(snapshot)
    .sort((a, b) => Number(b.endsWith(preferredExtension)) - Number(a.endsWith(preferredExtension)) || a.localeCompare(b))
    .map((name) => join(snapshot, name))
    .filter((path) => statSync(path).isFile() && startsWith(path, magic));
  if (candidates.length === 0) throw new Error(`no ${what} file in the snapshot folder ${snapshot}`);
  return candidates[0];
}
