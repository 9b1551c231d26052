import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { processAlive, readProcStat } from "@svc/platform/process";

/** What the lock file of a running `svc start` says about it. */
export interface RunRecord {
  pid: number;
  /** The process's start time in clock ticks since boot, to tell it from a later process with a recycled pid. */
  pidStartTicks: number | null;
  url: string;
  homeDir: string;
  startedAt: string;
  /** Each component's process and the port it reported (null until it did). */
  components: Record<string, { pid: number | null; port: number | null }>;
}

export class AlreadyRunningError extends Error {
  constructor(readonly record: RunRecord, lockFile: string) {
    super(
      `svc is already running for home folder ${record.homeDir} (pid ${record.pid}, ${record.url}, since ${record.startedAt}). ` +
        `Stop it first, or use another home folder with SVC_HOME_DIR. Lock: ${lockFile}`,
    );
    this.name = "AlreadyRunningError";
  }
}

/** Field 22 of /proc/PID/stat (Linux); null where there is no /proc. */
export function processStartTicks(pid: number): number | null {
  return readProcStat(pid)?.startTicks ?? null;
}

/** Running (a zombie left by `kill -9` is not) and not a later process that got the same pid. */
function holderAlive(record: RunRecord): boolean {
  if (!processAlive(record.pid)) return false;
  const ticks = processStartTicks(record.pid);
  return ticks === null || record.pidStartTicks === null || ticks === record.pidStartTicks;
}

export function readRunRecord(lockFile: string): RunRecord | undefined {
  try {
    return JSON.parse(readFileSync(lockFile, "utf8")) as RunRecord;
  } catch {
    return undefined;
  }
}

function writeTemp(lockFile: string, record: RunRecord): string {
  const temp = `${lockFile}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(record, null, 2), { mode: 0o600 });
  return temp;
}

/**
 * Takes the home folder's lock, atomically and with its content in place (hard link of a
 * written file). A lock left by a process that no longer runs is replaced.
 */
export function acquireLock(lockFile: string, record: RunRecord) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const temp = writeTemp(lockFile, record);
    try {
      linkSync(temp, lockFile);
      rmSync(temp);
      return;
    } catch (error) {
      rmSync(temp, { force: true });
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readRunRecord(lockFile);
    if (holder && holderAlive(holder)) throw new AlreadyRunningError(holder, lockFile);
    rmSync(lockFile, { force: true });
  }
  throw new Error(`Could not take the lock ${lockFile}; another svc start may be starting right now. Try again.`);
}

/** Rewrites the lock's content (e.g. new child pids) without ever leaving it absent or half-written. */
export function updateLock(lockFile: string, record: RunRecord) {
  renameSync(writeTemp(lockFile, record), lockFile);
}

export function releaseLock(lockFile: string) {
  const holder = readRunRecord(lockFile);
  if (!holder || holder.pid === process.pid) rmSync(lockFile, { force: true });
}
