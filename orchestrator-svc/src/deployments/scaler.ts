import { formatDuration } from "@svc/contracts";
import type { DeploymentRow, DeploymentStore } from "../db/deployment-store";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import { DEPLOYMENT_STOPPED, SCALED_DOWN } from "../reconciler/idle";
import type { InFlightCounts } from "./in-flight";
import type { DeploymentsService } from "./service";
import type { ServicesService } from "../services/service";
import { isComing, isDraining, isLiveReplica, isServing } from "./records";

/**
 * How long a replica drains before it may stop: the gateway's catalog of routes lives 1 s and its
 * activity report comes every 2 s, so after this long it has seen the drain and reported what the
 * replica still holds.
 */
export const DRAIN_MS = 5000;
/** A replica started to keep MIN that failed at once is not started again sooner than this. */
export const RESTORE_INTERVAL_MS = 10_000;

export interface ScalerDeps {
  deployments: DeploymentStore;
  services: ServiceStore;
  inFlight: InFlightCounts;
  /** Starts `count` replicas (stopped records first, then new ones). */
  start(deployment: DeploymentRow, count: number, reason: string): Promise<void>;
  /** Stops a replica, which keeps `reason` once STOPPED. */
  stop(serviceId: string, reason: string): Promise<void>;
  now(): number;
  log?(message: string): void;
}

/** The scaler over the deployments feature (which starts replicas) and the services feature (which stops them). */
export function scalerOf(parts: Pick<ScalerDeps, "deployments" | "services" | "inFlight" | "now" | "log"> & { starts: Pick<DeploymentsService, "startReplicas">; stops: Pick<ServicesService, "stopWithReason"> }): Scaler {
  const { starts, stops, ...deps } = parts;
  return new Scaler({ ...deps, start: (deployment, count, reason) => starts.startReplicas(deployment, count, reason), stop: (id, reason) => stops.stopWithReason(id, reason) });
}

/** "9.5": loads in events with one decimal at most. */
const decimal = (value: number) => String(Math.round(value * 10) / 10);

/**
 * The scaler of deployments, one step per reconciler tick: from the requests in flight the gateway
 * reports, it adds replicas when the load per replica stays above the target for scaleUpAfter
 * (replicas queued or starting count as coming), restores MIN, and drains then stops a replica
 * idle for scaleDownAfter while the others can take the load. Every decision is an event.
 */
export class Scaler {
  /** Since when each deployment's load has been above its target. */
  private readonly aboveSince = new Map<string, number>();
  private readonly restoredAt = new Map<string, number>();

  constructor(private readonly deps: ScalerDeps) {}

  async tick(): Promise<void> {
    const { deployments, services } = this.deps;
    const active = deployments.active();
    const replicas = services.replicasOf(active.map((row) => row.id));
    for (const deployment of active) {
      await this.step(deployment, replicas.get(deployment.id) ?? []).catch((error) => this.deps.log?.(`scaling ${deployment.name} failed: ${(error as Error).message}`));
    }
    const activeIds = new Set(active.map((row) => row.id));
    for (const [key] of this.aboveSince) if (!activeIds.has(key)) this.aboveSince.delete(key);
    // Replicas of stopped deployments: drained, then stopped.
    const orphans = services.live().filter((row) => row.deploymentId !== null && !activeIds.has(row.deploymentId));
    for (const replica of orphans) {
      if (replica.status === "STOPPING") continue;
      if (replica.status !== "HEALTHY") await this.deps.stop(replica.id, `${DEPLOYMENT_STOPPED}`);
      else if (replica.drainingSince === null) services.patch(replica.id, { drainingSince: new Date(this.deps.now()).toISOString() });
      else if (this.drained(replica)) await this.deps.stop(replica.id, `${DEPLOYMENT_STOPPED}: drained`);
    }
  }

  private async step(deployment: DeploymentRow, replicas: ServiceRow[]) {
    const { inFlight } = this.deps;
    const now = this.deps.now();
    const serving = replicas.filter(isServing);
    const live = replicas.filter(isLiveReplica).length;
    let draining = replicas.filter((row) => row.status === "HEALTHY" && isDraining(row));
    // Requests waiting in the gateway's fair-share queue for the model (every replica busy) are load too.
    const waiting = inFlight.waitingFor(deployment.id);
    const total = replicas.reduce((sum, row) => sum + inFlight.of(row.id), 0) + waiting;
    const load = total / Math.max(live, 1);

    // Drains that are over: the replica stops, unless a request came to it meanwhile (the drain waits again).
    let remaining = live + draining.length;
    for (const replica of draining) {
      if (replica.lastRequestAt !== null && replica.lastRequestAt > replica.drainingSince!) {
        this.deps.services.patch(replica.id, { drainingSince: new Date(now).toISOString() });
      } else if (this.drained(replica)) {
        if (remaining > deployment.max) {
          // Drained because MAX was lowered: that decision's event was recorded when it began.
          await this.deps.stop(replica.id, `${SCALED_DOWN}${remaining - 1}: above MAX ${deployment.max}`);
        } else {
          const idle = formatDuration(deployment.scaleDownAfterSeconds);
          await this.deps.stop(replica.id, `${SCALED_DOWN}${remaining - 1}: idle for ${idle}`);
          this.deps.deployments.note(deployment.id, { from: remaining, to: remaining - 1, message: `${SCALED_DOWN}${remaining - 1}: ${replica.name} idle for ${idle}` }, new Date(now));
        }
        remaining--;
        draining = draining.filter((row) => row !== replica);
      }
    }

    // MAX lowered (svc scale) below the replicas live: those on their way up stop now, then the least busy drain.
    if (live > deployment.max) {
      const extra = [...replicas.filter(isComing), ...serving.sort((a, b) => inFlight.of(a.id) - inFlight.of(b.id))].slice(0, live - deployment.max);
      for (const replica of extra) {
        if (isComing(replica)) await this.deps.stop(replica.id, `${SCALED_DOWN}${deployment.max}: above MAX ${deployment.max}`);
        else this.deps.services.patch(replica.id, { drainingSince: new Date(now).toISOString() });
      }
      this.deps.deployments.note(deployment.id, { from: live, to: deployment.max, message: `${SCALED_DOWN}${deployment.max}: above MAX ${deployment.max}` }, new Date(now));
      return;
    }

    if (load > deployment.targetInflight) {
      const since = this.aboveSince.get(deployment.id) ?? now;
      this.aboveSince.set(deployment.id, since);
      const desired = Math.min(deployment.max, Math.ceil(total / deployment.targetInflight));
      if (now - since >= deployment.scaleUpAfterSeconds * 1000 && desired > live) {
        const queued = waiting > 0 ? ` (${waiting} waiting in the gateway's queue)` : "";
        const message = `scaled up to ${desired}: ${decimal(load)} in flight per replica${queued} for ${Math.round((now - since) / 1000)} s`;
        await this.grow(deployment, draining, desired - live, message);
        this.deps.deployments.note(deployment.id, { from: live, to: desired, message }, new Date(now));
        this.aboveSince.set(deployment.id, now);
        return;
      }
    } else this.aboveSince.delete(deployment.id);

    if (live < deployment.min) {
      if (now - (this.restoredAt.get(deployment.id) ?? -Infinity) < RESTORE_INTERVAL_MS) return;
      this.restoredAt.set(deployment.id, now);
      const message = `scaled up to ${deployment.min}: below MIN ${deployment.min} (${whyBelow(replicas)})`;
      await this.grow(deployment, draining, deployment.min - live, message);
      this.deps.deployments.note(deployment.id, { from: live, to: deployment.min, message }, new Date(now));
      return;
    }

    // Down: the longest-idle replica with nothing in flight, while the others would stay within the target.
    if (live <= deployment.min || load > deployment.targetInflight) return;
    const othersCanTake = live - 1 === 0 ? total === 0 : total / (live - 1) <= deployment.targetInflight;
    if (!othersCanTake) return;
    const idleSince = (row: ServiceRow) => Date.parse(row.lastRequestAt ?? row.updatedAt);
    const idle = serving
      .filter((row) => inFlight.of(row.id) === 0 && now - idleSince(row) >= deployment.scaleDownAfterSeconds * 1000)
      .sort((a, b) => idleSince(a) - idleSince(b))[0];
    if (idle) this.deps.services.patch(idle.id, { drainingSince: new Date(now).toISOString() });
  }

  /** Adds `count` live replicas: draining ones kept first (they still run), then started ones. */
  private async grow(deployment: DeploymentRow, draining: ServiceRow[], count: number, reason: string) {
    const kept = draining.slice(0, count);
    for (const replica of kept) this.deps.services.patch(replica.id, { drainingSince: null });
    if (count > kept.length) await this.deps.start(deployment, count - kept.length, reason);
  }

  /** Draining for DRAIN_MS and the gateway's last report says it holds nothing. */
  private drained(replica: ServiceRow): boolean {
    return this.deps.now() - Date.parse(replica.drainingSince!) >= DRAIN_MS && this.deps.inFlight.of(replica.id) === 0;
  }
}

/** Why a deployment has fewer live replicas than MIN: the replica that ended last, and its reason. */
function whyBelow(replicas: ServiceRow[]): string {
  const ended = replicas.filter((row) => !isLiveReplica(row) && !isDraining(row)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
  if (!ended) return "fewer replicas than MIN";
  return `${ended.name} ${ended.status}${ended.reason ? `: ${ended.reason}` : ""}`;
}
