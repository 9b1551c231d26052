import { readProcStat } from "./proc-stat";

/**
 * Whether a process with this pid is running (one of another user counts: signalling it is merely
 * refused). A zombie — exited, waiting for its parent to reap it, as right after `kill -9` — is dead.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const state = readProcStat(pid)?.state;
  return state !== "Z" && state !== "X";
}
