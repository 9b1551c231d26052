import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

let counter = 0;

/**
 * Writes `path` whole or not at all: the text goes to a temporary file in `tmpDir` (on the same
 * file system, inside the state folder) and is then renamed into place, so a job killed at any
 * moment never leaves a half-written output where a resumed job would take it for done.
 */
export function writeAtomically(path: string, text: string | Uint8Array, tmpDir: string) {
  mkdirSync(tmpDir, { recursive: true });
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(tmpDir, `${process.pid}-${++counter}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
