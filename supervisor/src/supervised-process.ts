import { closeSync, openSync } from "node:fs";
import type { Subprocess } from "bun";

export interface ProcessSpec {
  name: string;
  entry: string;
  /** Asked at every (re)start: a restarted process gets what is known then (its last port, the services' addresses). */
  env: () => Record<string, string>;
  logFile: string;
}

export interface ProcessEvents {
  spawned(name: string, pid: number): void;
  /** A message the process sent over its IPC channel (e.g. the port it listens on). */
  message(name: string, message: unknown): void;
}

const FIRST_DELAY_MS = 200;
const MAX_DELAY_MS = 2000;
/** A process that ran this long is considered healthy again: its next crash restarts quickly. */
const STABLE_AFTER_MS = 10_000;

/**
 * One child Bun process that is restarted when it dies (200 ms, doubling to at most 2 s while it
 * keeps crashing), until stop() is called. Its output is appended to its log file; it talks to
 * the supervisor over Bun's IPC channel.
 */
export class SupervisedProcess {
  private child: Subprocess | undefined;
  private stopping = false;
  private crashes = 0;
  private restartTimer: Timer | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly spec: ProcessSpec,
    private readonly log: (message: string) => void,
    private readonly events: ProcessEvents,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start() {
    const logFd = openSync(this.spec.logFile, "a", 0o600);
    const startedAt = Date.now();
    const child = Bun.spawn([process.execPath, this.spec.entry], {
      env: this.spec.env(),
      stdin: "ignore",
      stdout: logFd,
      stderr: logFd,
      ipc: (message) => this.events.message(this.spec.name, message),
    });
    closeSync(logFd);
    this.child = child;
    this.events.spawned(this.spec.name, child.pid);
    this.exited = child.exited.then((code) => {
      if (this.stopping) return;
      const ranMs = Date.now() - startedAt;
      this.crashes = ranMs > STABLE_AFTER_MS ? 1 : this.crashes + 1;
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (this.crashes - 1), MAX_DELAY_MS);
      const how = child.signalCode ? `signal ${child.signalCode}` : `exit code ${code}`;
      this.log(`${this.spec.name} (pid ${child.pid}) stopped with ${how}; restarting in ${delay} ms. Log: ${this.spec.logFile}`);
      this.restartTimer = setTimeout(() => this.start(), delay);
    });
  }

  /** Sends a message over the IPC channel; dropped when the process is not running (it learns it at its restart). */
  send(message: unknown) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    try {
      child.send(message);
    } catch {
      // exited meanwhile
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves when the process is gone. */
  async stop(graceMs = 5000) {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killTimer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await child.exited;
    clearTimeout(killTimer);
  }
}
