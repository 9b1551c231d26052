import type { ServiceStatus } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { Engine, Observation } from "../engines/engine";
import { nextStatus } from "./next-status";
import { probeHealth } from "./health-probe";

/** While something is on its way (starting, stopping) the loop looks this often, so HEALTHY shows within a second. */
const FAST_TICK_MS = 200;
const SLOW_TICK_MS = 2000;
/** A submit interrupted before its handle was recorded, and not found in the engine after this long, failed. */
const ADOPT_GRACE_MS = 30_000;
const BUSY: readonly ServiceStatus[] = ["SUBMITTED", "PENDING", "STARTING", "STOPPING"];

export interface ReconcilerDeps {
  store: ServiceStore;
  /** The engine that runs a service (by its engine kind and profile). */
  engineFor(row: ServiceRow): Engine;
  probe?: typeof probeHealth;
  log?: (message: string) => void;
}

/**
 * The one control loop (like a Kubernetes controller): each tick it asks every engine, once, about
 * all its live services, probes the running ones' health, and moves each recorded status toward
 * what it saw. Engine events and API actions wake it early.
 */
export class Reconciler {
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private lastFailure: { message: string; at: number } | undefined;

  constructor(private readonly deps: ReconcilerDeps) {}

  start() {
    this.stopped = false;
    this.wake();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Runs a tick now (or right after the current one). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.tick()
      .then(() => (this.lastFailure = undefined))
      .catch((error) => this.reportFailure((error as Error).message))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        const busy = this.deps.store.live().some((row) => BUSY.includes(row.status as ServiceStatus));
        this.timer = setTimeout(() => this.wake(), busy ? FAST_TICK_MS : SLOW_TICK_MS);
      });
  }

  /** Logs a failing tick once, and again only if it still fails after a minute (e.g. Docker is down). */
  private reportFailure(message: string) {
    const now = Date.now();
    if (this.lastFailure?.message === message && now - this.lastFailure.at < 60_000) return;
    this.lastFailure = { message, at: now };
    this.deps.log?.(`reconcile failed (statuses kept as they were): ${message}`);
  }

  /** One pass over every live service. */
  async tick(): Promise<void> {
    const groups = new Map<Engine, ServiceRow[]>();
    for (const row of this.deps.store.live()) {
      const engine = this.deps.engineFor(row);
      groups.set(engine, [...(groups.get(engine) ?? []), row]);
    }
    await Promise.all([...groups].map(([engine, rows]) => this.reconcile(engine, rows)));
  }

  private async reconcile(engine: Engine, rows: ServiceRow[]) {
    await this.adoptOrphans(engine, rows);
    const tracked = rows.filter((row) => row.handle);
    if (tracked.length === 0) return;
    const observations = await engine.inspect(tracked.map((row) => row.handle!));
    const probe = this.deps.probe ?? probeHealth;
    await Promise.all(
      tracked.map(async (row) => {
        const observation: Observation = observations.get(row.handle!) ?? { phase: "missing" };
        const healthy = observation.phase === "running" && observation.port !== null ? await probe(observation.host, observation.port) : undefined;
        const decision = nextStatus(row.status as ServiceStatus, observation, healthy);
        const patch = observation.phase === "running" ? { host: observation.host, port: observation.port } : {};
        const portChanged = observation.phase === "running" && (row.port !== observation.port || row.host !== observation.host);
        if (decision.status !== row.status || portChanged) {
          const applied = this.deps.store.transition(row.id, decision.status, decision.reason, patch, row.status as ServiceStatus);
          if (applied && decision.status !== row.status) this.deps.log?.(`${row.id} ${row.status} → ${decision.status}${decision.reason ? `: ${decision.reason.split("\n")[0]}` : ""}`);
        }
      }),
    );
  }

  /** Services recorded as submitted but without a handle: the orchestrator stopped between submit and record. */
  private async adoptOrphans(engine: Engine, rows: ServiceRow[]) {
    const orphans = rows.filter((row) => !row.handle && row.status === "SUBMITTED");
    if (orphans.length === 0) return;
    const found = await engine.adopt(orphans.map((row) => row.id));
    for (const row of orphans) {
      const handle = found.get(row.id);
      if (handle) this.deps.store.patch(row.id, { handle });
      else if (Date.now() - Date.parse(row.updatedAt) > ADOPT_GRACE_MS) {
        this.deps.store.transition(row.id, "FAILED", "the submission was interrupted before the engine accepted it", {}, "SUBMITTED");
      }
    }
  }
}
