import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "./atomic-write";

export type ItemStatus = "pending" | "running" | "done" | "failed";

/** What the progress file says (read by svc's reconciler on each status pass). */
export interface Progress {
  phase: "starting" | "running" | "idle" | "finished" | "stopped" | "failed";
  total: number;
  done: number;
  failed: number;
  running: number;
  /** Inputs completed by this run of the driver (this allocation), and its rate in files per minute. */
  processed: number;
  filesPerMinute: number;
  startedAt: string;
  updatedAt: string;
  message?: string;
}

/** The state file: each input's status and why the failed ones failed (kept across runs, so a resumed job skips them). */
export interface StateFile {
  failures: Record<string, { reason: string; at: string }>;
  files: Record<string, ItemStatus>;
}

const WRITE_EVERY_MS = 1000;

/** The job's bookkeeping: statuses in memory, the state and progress files written at most once a second (and at the end). */
export class JobState {
  readonly statuses = new Map<string, ItemStatus>();
  readonly failures: StateFile["failures"];
  private readonly startedAt = new Date();
  private firstRequestAt: number | undefined;
  private processed = 0;
  private phase: Progress["phase"] = "starting";
  private message: string | undefined;
  private timer: Timer | undefined;
  private readonly stateFile: string;
  private readonly tmpDir: string;

  constructor(
    stateDir: string,
    private readonly progressFile: string,
    retryFailed: boolean,
  ) {
    this.stateFile = join(stateDir, "state.json");
    this.tmpDir = join(stateDir, "tmp");
    const previous = existsSync(this.stateFile) ? (JSON.parse(readFileSync(this.stateFile, "utf8")) as StateFile) : undefined;
    this.failures = retryFailed ? {} : (previous?.failures ?? {});
  }

  get temporaryDir() {
    return this.tmpDir;
  }

  /** An input seen for the first time: done already (its output exists), failed before, or still to do. */
  add(item: string, outputExists: boolean): ItemStatus {
    const status: ItemStatus = outputExists ? "done" : this.failures[item] ? "failed" : "pending";
    this.statuses.set(item, status);
    this.changed();
    return status;
  }

  started(item: string) {
    this.firstRequestAt ??= Date.now();
    this.statuses.set(item, "running");
    this.changed();
  }

  /** Back to pending: it was not the input's fault (the runtime did not answer). */
  requeued(item: string) {
    this.statuses.set(item, "pending");
    this.changed();
  }

  succeeded(item: string) {
    this.statuses.set(item, "done");
    delete this.failures[item];
    this.processed++;
    this.changed();
  }

  failed(item: string, reason: string) {
    this.statuses.set(item, "failed");
    this.failures[item] = { reason: reason.slice(0, 2000), at: new Date().toISOString() };
    this.processed++;
    this.changed();
  }

  setPhase(phase: Progress["phase"], message?: string) {
    this.phase = phase;
    this.message = message;
    this.changed();
  }

  progress(): Progress {
    const counts = { done: 0, failed: 0, running: 0 };
    for (const status of this.statuses.values()) if (status !== "pending") counts[status]++;
    const minutes = this.firstRequestAt === undefined ? 0 : (Date.now() - this.firstRequestAt) / 60_000;
    return {
      phase: this.phase,
      total: this.statuses.size,
      ...counts,
      processed: this.processed,
      filesPerMinute: minutes > 0 ? Math.round((this.processed / minutes) * 100) / 100 : 0,
      startedAt: this.startedAt.toISOString(),
      updatedAt: new Date().toISOString(),
      ...(this.message ? { message: this.message } : {}),
    };
  }

  private changed() {
    this.timer ??= setTimeout(() => this.flush(), WRITE_EVERY_MS);
  }

  /** Writes both files now. */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const state: StateFile = { failures: this.failures, files: Object.fromEntries(this.statuses) };
    writeAtomically(this.stateFile, JSON.stringify(state), this.tmpDir);
    writeAtomically(this.progressFile, `${JSON.stringify(this.progress())}\n`, this.tmpDir);
  }
}
