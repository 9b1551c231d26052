import { isLive } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import { instanceKey, type Engine, type LaunchSpec, type Observation } from "../engines/engine";
import { launchOf, readSuccessor, type StoredSuccessor } from "../services/records";

/** How long the old job keeps serving the requests it has after the handover before it is cancelled. */
export const DRAIN_MS = 20_000;
/** A successor that failed to submit or start is tried again after this long (if the old job still has time). */
const RETRY_MS = 30_000;
/** A successor recorded as being submitted, not found in the engine after this long, was never submitted. */
const ADOPT_GRACE_MS = 30_000;

/** A job's name in events: the Slurm job id of a `<job id>:<folder>` handle. */
export const jobOf = (handle: string) => handle.split(":")[0];

export interface RenewalDeps {
  store: ServiceStore;
  now: () => number;
  wake: () => void;
  log?: (message: string) => void;
}

/**
 * Renewal (--renew): before the current job's end time (as the engine reports it) a successor job
 * with the same spec is submitted; once it answers its health check the service's handle, host and
 * port move to it in one write (so /proxy, and /v1, send new requests there), and the old job
 * drains for DRAIN_MS and is cancelled. Each step is recorded in the `successor` column before it
 * acts, so a restart of svc resumes where it was: a submit whose handle was never recorded is
 * adopted from the engine by its instance key, a draining job is still cancelled. Events record
 * every step.
 */
export class Renewals {
  private readonly submitting = new Set<string>();
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly deps: RenewalDeps) {}

  /** Handles of other jobs to observe with the services' own (successors, jobs draining). */
  extraHandles(rows: ServiceRow[]): string[] {
    return rows.flatMap((row) => readSuccessor(row)?.handle ?? []);
  }

  /** Successors recorded as being submitted, with no handle, and not submitting in this process: svc stopped in between. */
  async adopt(engine: Engine, rows: ServiceRow[]) {
    const { store, now } = this.deps;
    const waiting = rows.flatMap((row) => {
      const successor = readSuccessor(row);
      return successor?.phase === "submitting" && !successor.handle && !this.submitting.has(row.id) ? [{ row, successor }] : [];
    });
    if (waiting.length === 0) return;
    const found = await engine.adopt(waiting.map(({ row, successor }) => instanceKey(row.id, successor.generation)));
    for (const { row, successor } of waiting) {
      const handle = found.get(instanceKey(row.id, successor.generation));
      if (handle) {
        store.note(row.id, `renewal: found successor job ${jobOf(handle)}, submitted before svc restarted`, { successor: write({ ...successor, phase: "starting", handle }) });
      } else if (now() - Date.parse(successor.since) > ADOPT_GRACE_MS) {
        store.note(row.id, "renewal: the successor's submission was interrupted before the engine accepted it; submitting again", { successor: null });
      }
    }
  }

  /**
   * Moves a renewal along given what the engine reports of the current job and of the successor
   * (or the job draining). Returns true when it changed the current job, so this tick's status
   * decision for the old observation must not be applied.
   */
  async step(engine: Engine, row: ServiceRow, current: Observation, other: Observation | undefined, healthy: (o: Observation) => Promise<boolean>): Promise<boolean> {
    const successor = readSuccessor(row);
    if (!successor?.handle || !other) return false;
    const { store, now } = this.deps;
    const at = new Date(now()).toISOString();
    if (successor.phase === "draining") {
      if (other.phase === "running" && now() - Date.parse(successor.since) < DRAIN_MS) return false;
      await engine.stop(successor.handle);
      await engine.release(successor.handle).catch(() => {});
      store.note(row.id, `renewal: job ${jobOf(successor.handle)} drained and cancelled`, { successor: null });
      return false;
    }
    if (successor.phase !== "starting") return false;
    if (other.phase === "running" && (await healthy(other))) {
      const patch = {
        handle: successor.handle,
        host: other.host,
        port: other.port,
        endsAt: other.endsAt ?? null,
        generation: successor.generation,
        successor: row.handle ? write({ phase: "draining", handle: row.handle, generation: row.generation, since: at }) : null,
      };
      const reason = `handover: job ${jobOf(successor.handle)} serves new requests${row.handle ? `; job ${jobOf(row.handle)} drains (${DRAIN_MS / 1000} s at most)` : ""}`;
      if (row.status === "HEALTHY") store.note(row.id, reason, patch);
      else store.transition(row.id, "HEALTHY", reason, { ...patch, reason: null }, row.status);
      this.deps.log?.(`${row.id} ${reason}`);
      return true;
    }
    if (other.phase === "exited" || other.phase === "missing") {
      const why = other.phase === "exited" ? other.reason.split("\n")[0] : "the engine no longer knows it";
      this.failedAt.set(row.id, now());
      store.note(row.id, `renewal: successor job ${jobOf(successor.handle)} ended before it could serve (${why}); trying again while the current job runs`, { successor: null });
      return false;
    }
    // The successor is queued or starting. If the current job has ended meanwhile, the successor becomes the current job.
    if (current.phase === "exited" || current.phase === "missing") {
      const queued = other.phase === "queued";
      const reason = `the job ${row.handle ? jobOf(row.handle) : "?"} ended before its successor ${jobOf(successor.handle)} could start${queued && other.reason ? `: ${other.reason}` : ""}`;
      store.transition(row.id, queued ? "PENDING" : "STARTING", reason, { handle: successor.handle, host: null, port: null, endsAt: null, generation: successor.generation, successor: null });
      if (row.handle) await engine.release(row.handle).catch(() => {});
      return true;
    }
    return false;
  }

  /** Starts a renewal when the current job's end time is within --renew-before and none is under way. */
  maybeStart(engine: Engine, row: ServiceRow, current: Observation) {
    const { now } = this.deps;
    if (row.renewBeforeSeconds === null || row.status !== "HEALTHY" || row.successor || !row.handle || this.submitting.has(row.id)) return;
    if (current.phase !== "running" || !current.endsAt) return;
    const endsAt = Date.parse(current.endsAt);
    if (now() < endsAt - row.renewBeforeSeconds * 1000) return;
    if (now() - (this.failedAt.get(row.id) ?? 0) < RETRY_MS) return;
    this.submit(engine, row, current.endsAt);
  }

  private submit(engine: Engine, row: ServiceRow, endsAt: string) {
    const { store, now } = this.deps;
    const generation = row.generation + 1;
    const record: StoredSuccessor = { phase: "submitting", handle: null, generation, since: new Date(now()).toISOString() };
    // Recorded before sbatch runs: a restart in between looks for the job by its instance key.
    store.note(row.id, `renewal: job ${jobOf(row.handle!)} ends at ${endsAt}; submitting a successor`, { successor: write(record) });
    const spec: LaunchSpec = { serviceId: row.id, name: row.name, task: row.task, ...launchOf(row), generation };
    this.submitting.add(row.id);
    void (async () => {
      try {
        const submitted = await engine.submit(spec);
        const latest = store.get(row.id);
        const successor = latest && readSuccessor(latest);
        if (!latest || !isLive(latest.status) || latest.status === "STOPPING" || successor?.generation !== generation || successor.phase !== "submitting") {
          // Stopped (or removed) while sbatch ran: the successor is not wanted.
          await engine.stop(submitted.handle).catch(() => {});
          return;
        }
        store.note(row.id, `renewal: successor job ${jobOf(submitted.handle)} submitted`, { successor: write({ ...record, phase: "starting", handle: submitted.handle }) });
      } catch (error) {
        this.failedAt.set(row.id, now());
        store.note(row.id, `renewal: the successor could not be submitted (${(error as Error).message.split("\n")[0]}); trying again in ${RETRY_MS / 1000} s`, { successor: null });
      } finally {
        this.submitting.delete(row.id);
        this.deps.wake();
      }
    })();
  }
}

const write = (successor: StoredSuccessor) => JSON.stringify(successor);
