import { isBusy } from "@svc/contracts";
import type { ServicePatch, ServiceRow, ServiceStore } from "../db/service-store";
import type { Engine, Observation } from "../engines/engine";
import { nextStatus } from "./next-status";
import { probeHealth } from "./health-probe";
import { HealthWatch } from "./health-watch";
import { EngineBackoff } from "./backoff";
import { idleFor, keepsStopReason } from "./idle";
import { Renewals } from "./renewal";
import { readSpec } from "../services/records";
import { KIND_TRAITS } from "../engines/kind-traits";

/** While something is on its way (starting, stopping) the loop looks this often, so HEALTHY shows within a second. */
const FAST_TICK_MS = 200;
/**
 * The same on Docker, where a look is a local API call, for what the health watch does not cover (a
 * service stopping). A starting Docker service is looked at every FAST_TICK_MS, and its /health
 * every few ms by the HealthWatch, which wakes the loop at the first 200.
 */
const FAST_LOCAL_TICK_MS = 25;
const SLOW_TICK_MS = 2000;
/** A submit interrupted before its handle was recorded, and not found in the engine after this long, failed. */
const ADOPT_GRACE_MS = 30_000;

/**
 * Jobs other than services whose engine state the loop reads in the same call as the services'
 * (batch jobs): it groups their handles with the services of the same engine, so a Slurm profile
 * still costs one status round trip per tick, and hands each follower what was seen.
 */
export interface JobFollower {
  /** Live jobs with a handle, and the engine of each. */
  tracked(): { engine: Engine; handle: string }[];
  /** What the engine reported about them this tick. */
  observed(engine: Engine, observations: Map<string, Observation>): Promise<void>;
  /** Whether any is on its way somewhere (the loop then looks more often). */
  busy(): boolean;
  /** Runs at the start of each tick (e.g. to adopt jobs whose submit was cut off before their handle was recorded). */
  beforeTick?(): Promise<void>;
}

export interface ReconcilerDeps {
  store: ServiceStore;
  followers?: JobFollower[];
  /** The engine that runs a recorded service. */
  engineFor(row: ServiceRow): Engine;
  probe?: typeof probeHealth;
  /** Requests the gateway holds per service: a service with one in flight is not idle. */
  inFlight?: { of(id: string): number };
  log?: (message: string) => void;
  now?: () => number;
  /** Told before each tick, and after it how long it took (seconds). */
  onTickStart?: () => void;
  onTick?: (seconds: number) => void;
  /** Runs at the end of each tick, on the statuses it recorded (the scaler of deployments). */
  afterTick?: () => Promise<void>;
}

/**
 * The one control loop (level-based, like a Kubernetes controller): each tick it asks every engine,
 * once, about all its live services, probes the running ones' health, and moves each recorded
 * status toward what it saw. Engines are independent: one that fails is retried later, with a
 * growing wait of its own, while the others' services go on being reconciled. Engine events and
 * API actions wake it early.
 */
export class Reconciler {
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly backoff: EngineBackoff;
  /** Services whose submit is under way in this process: not orphans, whatever their age. */
  private readonly inFlight = new Set<string>();
  private readonly renewals: Renewals;
  private readonly healthWatch: HealthWatch;

  constructor(private readonly deps: ReconcilerDeps) {
    this.backoff = new EngineBackoff(deps.now ?? Date.now);
    this.healthWatch = new HealthWatch(deps.probe ?? probeHealth, () => this.wake());
    this.renewals = new Renewals({ store: deps.store, now: deps.now ?? Date.now, wake: () => this.wake(), log: deps.log });
  }

  start() {
    this.stopped = false;
    this.wake();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.healthWatch.stop();
  }

  /** Runs `submit` for service `id`, which the loop then leaves to it until it has returned. */
  async submitting<T>(id: string, submit: () => Promise<T>): Promise<T> {
    this.inFlight.add(id);
    try {
      return await submit();
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** Runs a tick now (or right after the current one). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    const started = performance.now();
    this.deps.onTickStart?.();
    this.running = this.tick().finally(() => {
      this.deps.onTick?.((performance.now() - started) / 1000);
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      const busy = this.deps.store.live().filter((row) => isBusy(row.status));
      const followersBusy = (this.deps.followers ?? []).some((follower) => follower.busy());
      // Services on their way up whose server answers on this machine, with the port it will answer on.
      const watched = busy.filter((row) => KIND_TRAITS[row.engine].watchesHealth && row.status !== "STOPPING" && row.host !== null && row.port !== null);
      this.healthWatch.watch(watched.map((row) => ({ id: row.id, host: row.host!, port: row.port! })));
      const localUnwatched = busy.some((row) => KIND_TRAITS[row.engine].watchesHealth && !watched.includes(row));
      const wait = busy.length === 0 && !followersBusy ? SLOW_TICK_MS : localUnwatched ? FAST_LOCAL_TICK_MS : FAST_TICK_MS;
      this.timer = setTimeout(() => this.wake(), wait);
    });
  }

  /** One pass over every live service: each engine's services on their own, side by side. */
  async tick(): Promise<void> {
    for (const follower of this.deps.followers ?? []) await follower.beforeTick?.().catch((error) => this.deps.log?.(`adopting jobs failed: ${(error as Error).message}`));
    const groups = new Map<Engine, ServiceRow[]>();
    for (const row of this.deps.store.live()) {
      const engine = this.deps.engineFor(row);
      groups.set(engine, [...(groups.get(engine) ?? []), row]);
    }
    const others = new Map<Engine, { follower: JobFollower; handle: string }[]>();
    for (const follower of this.deps.followers ?? []) {
      for (const { engine, handle } of follower.tracked()) {
        others.set(engine, [...(others.get(engine) ?? []), { follower, handle }]);
        if (!groups.has(engine)) groups.set(engine, []);
      }
    }
    await Promise.allSettled(
      [...groups]
        .filter(([engine]) => this.backoff.due(engine))
        .map(async ([engine, rows]) => {
          try {
            await this.reconcile(engine, rows, others.get(engine) ?? []);
            this.backoff.succeeded(engine);
          } catch (error) {
            const report = this.backoff.failed(engine, (error as Error).message);
            if (report) this.deps.log?.(`reconcile of ${rows.length} ${engine.kind} service(s) failed (statuses kept as they were; next try in ${report.retryInMs} ms): ${report.message}`);
          }
        }),
    );
    await this.deps.afterTick?.().catch((error) => this.deps.log?.(`scaling deployments failed: ${(error as Error).message}`));
  }

  private async reconcile(engine: Engine, rows: ServiceRow[], others: { follower: JobFollower; handle: string }[]) {
    await this.adoptOrphans(engine, rows);
    await this.renewals.adopt(engine, rows);
    const current = this.deps.store.byIds(rows.map((row) => row.id));
    rows = rows.map((row) => current.get(row.id) ?? row);
    const tracked = rows.filter((row) => row.handle);
    if (tracked.length === 0 && others.length === 0) return;
    // One inspect for the services' jobs, any renewal's other job, and the followers' jobs (batch jobs).
    const observations = await engine.inspect([...tracked.map((row) => row.handle!), ...this.renewals.extraHandles(tracked), ...others.map((other) => other.handle)]);
    for (const follower of new Set(others.map((other) => other.follower))) {
      const mine = new Map(others.filter((other) => other.follower === follower).map(({ handle }) => [handle, observations.get(handle) ?? { phase: "missing" as const }]));
      await follower.observed(engine, mine).catch((error) => this.deps.log?.(`following ${mine.size} job(s) failed: ${(error as Error).message}`));
    }
    const probe = this.deps.probe ?? probeHealth;
    const healthyAt = async (observation: Observation) => (observation.phase === "running" && observation.port !== null ? await probe(observation.host, observation.port) : false);
    const now = (this.deps.now ?? Date.now)();
    await Promise.all(
      tracked.map(async (row) => {
        const observation: Observation = observations.get(row.handle!) ?? { phase: "missing" };
        const other = row.successor ? observations.get(JSON.parse(row.successor).handle ?? "") : undefined;
        if (await this.renewals.step(engine, row, observation, other, healthyAt)) return;
        const healthy = observation.phase === "running" && observation.port !== null ? await probe(observation.host, observation.port) : undefined;
        const stopReason = row.status === "STOPPING" && keepsStopReason(row.reason) ? row.reason! : undefined;
        const decision = nextStatus(row.status, observation, healthy, this.grace(row, healthy), stopReason);
        const patch: ServicePatch = observation.phase === "running" ? { host: observation.host, port: observation.port } : {};
        const portChanged = observation.phase === "running" && (row.port !== observation.port || row.host !== observation.host);
        const endsAt = observation.phase === "running" ? (observation.endsAt ?? null) : row.endsAt;
        if (endsAt !== row.endsAt) patch.endsAt = endsAt;
        // The idle clock starts when the service becomes HEALTHY.
        if (decision.status === "HEALTHY" && row.status !== "HEALTHY") patch.lastRequestAt = new Date(now).toISOString();
        // A queued job's reason changes as the scheduler looks at it (None, then Resources…): keep it current.
        const reasonChanged = decision.status === "PENDING" && row.status === "PENDING" && decision.reason !== null && decision.reason !== row.reason;
        if (reasonChanged) patch.reason = decision.reason;
        if (decision.status !== row.status || portChanged || reasonChanged || patch.endsAt !== undefined) {
          // Applied only if the status is still the one read (a stop requested meanwhile wins).
          const applied = this.deps.store.transition(row.id, decision.status, decision.reason, patch, row.status, new Date((this.deps.now ?? Date.now)()));
          if (applied && decision.status !== row.status) this.deps.log?.(`${row.id} ${row.status} → ${decision.status}${decision.reason ? `: ${decision.reason.split("\n")[0]}` : ""}`);
        }
        if (decision.status !== "HEALTHY" || row.status !== "HEALTHY") return;
        const idle = idleFor(row, now, this.deps.inFlight?.of(row.id) ?? 0);
        if (idle) await this.stopIdle(engine, row, idle);
        else this.renewals.maybeStart(engine, row, observation);
      }),
    );
  }

  /** --idle-stop: the service goes STOPPING with the reason it keeps once STOPPED ("idle for 30 min"). */
  private async stopIdle(engine: Engine, row: ServiceRow, reason: string) {
    if (!this.deps.store.transition(row.id, "STOPPING", reason, {}, "HEALTHY")) return;
    this.deps.log?.(`${row.id} HEALTHY → STOPPING: ${reason}`);
    await engine.stop(row.handle!);
  }

  /** A starting service's `--grace-period`, and whether it is over (measured from when it became STARTING). */
  private grace(row: ServiceRow, healthy: boolean | undefined): { seconds: number; over: boolean } | undefined {
    if (row.status !== "STARTING" || healthy !== false) return undefined;
    const seconds = readSpec(row).gracePeriod;
    if (seconds === undefined) return undefined;
    const since = this.deps.store.lastEnteredAt(row.id, "STARTING");
    const now = (this.deps.now ?? Date.now)();
    return { seconds, over: since !== undefined && now - Date.parse(since) >= seconds * 1000 };
  }

  /** Services recorded as submitted but without a handle: the orchestrator stopped between submit and record. */
  private async adoptOrphans(engine: Engine, rows: ServiceRow[]) {
    const orphans = rows.filter((row) => !row.handle && row.status === "SUBMITTED" && !this.inFlight.has(row.id));
    if (orphans.length === 0) return;
    const found = await engine.adopt(orphans.map((row) => row.id));
    const now = (this.deps.now ?? Date.now)();
    for (const row of orphans) {
      const handle = found.get(row.id);
      if (handle) this.deps.store.patch(row.id, { handle });
      else if (now - Date.parse(row.updatedAt) > ADOPT_GRACE_MS) {
        this.deps.store.transition(row.id, "FAILED", "the submission was interrupted before the engine accepted it", {}, "SUBMITTED");
      }
    }
  }
}
