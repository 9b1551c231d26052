import { fstatSync } from "node:fs";

/** /dev/null's device number on Linux (1, 3): a character device that is not a terminal. */
const DEV_NULL = 0x103;

/**
 * Whether file descriptor `fd` is a terminal. Reading `process.stdout.isTTY` (or loading node:tty)
 * loads Node's stream machinery, ~10 ms of a command's start; a stat is enough here.
 */
export function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isCharacterDevice() && stat.rdev !== DEV_NULL;
  } catch {
    return false;
  }
}
