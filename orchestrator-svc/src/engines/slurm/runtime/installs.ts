import { randomUUID } from "node:crypto";
import type { RuntimeInstall, RuntimeInstallState } from "@svc/contracts";
import { EngineError } from "../../engine-error";

/** Finished installs kept for `GET /api/runtimes/installs` (the oldest go first). */
const KEEP_FINISHED = 50;

export type InstallStart = Pick<RuntimeInstall, "profile" | "host" | "version" | "arch" | "bytesTotal">;

/**
 * Every runtime install of this orchestrator, with its progress, and at most one upload per target
 * (cluster account, home folder and version) at a time: a second `svc run` or `svc runtime install`
 * that needs the same version while it is on its way joins it instead of sending it again.
 */
export class RuntimeInstalls {
  private readonly tasks = new Map<string, RuntimeInstall>();
  private readonly running = new Map<string, { task: RuntimeInstall; done: Promise<RuntimeInstall> }>();

  /**
   * The install running for `target`, or a new one doing `work`, which updates the task as it goes
   * (bytes, notes). `done` resolves with the finished task, or rejects with `work`'s error.
   */
  run(target: string, start: InstallStart, work: (task: RuntimeInstall) => Promise<void>): { task: RuntimeInstall; done: Promise<RuntimeInstall> } {
    const joined = this.running.get(target);
    if (joined) return joined;
    const task: RuntimeInstall = {
      id: randomUUID(),
      ...start,
      state: "running",
      alreadyInstalled: false,
      bytesDone: 0,
      bytesSent: 0,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      notes: [],
    };
    this.remember(task);
    const finish = (state: RuntimeInstallState) => {
      task.state = state;
      task.finishedAt = new Date().toISOString();
      this.running.delete(target);
    };
    const done = work(task).then(
      () => {
        finish("done");
        return task;
      },
      (error: unknown) => {
        const failure = error instanceof EngineError ? error : new EngineError("failed", (error as { code?: string }).code ?? "runtime_install_failed", (error as Error).message);
        task.error = { error: failure.code, message: failure.message };
        finish("failed");
        throw error;
      },
    );
    done.catch(() => {});
    this.running.set(target, { task, done });
    return { task, done };
  }

  /** Records a finished check that found the version installed (nothing was sent). */
  alreadyThere(start: InstallStart): RuntimeInstall {
    const now = new Date().toISOString();
    const task: RuntimeInstall = { id: randomUUID(), ...start, state: "done", alreadyInstalled: true, bytesDone: 0, bytesSent: 0, startedAt: now, finishedAt: now, notes: [] };
    this.remember(task);
    return task;
  }

  private remember(task: RuntimeInstall) {
    this.tasks.set(task.id, task);
    const finished = [...this.tasks.values()].filter((t) => t.state !== "running");
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.tasks.delete(old.id);
  }

  get(id: string): RuntimeInstall | undefined {
    return this.tasks.get(id);
  }

  /** Installs, newest first, optionally of one profile or in one state. */
  list(filter: { profile?: string; state?: RuntimeInstallState } = {}): RuntimeInstall[] {
    return [...this.tasks.values()]
      .filter((task) => (filter.profile === undefined || task.profile === filter.profile) && (filter.state === undefined || task.state === filter.state))
      .reverse();
  }
}
