import { randomUUID } from "node:crypto";
import { badRequest, conflict, isLive, MAX_REPLICAS, type DeploymentDetails, type DeploymentRecord, type RunRequest, type RunResponse, type ScaleRequest, type ScalingRequest } from "@svc/contracts";
import { currentUserName } from "@svc/platform/process";
import type { DeploymentRow, DeploymentStore } from "../db/deployment-store";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { ServicesService } from "../services/service";
import { policiesOf, toServiceRecord } from "../services/records";
import { unusedName } from "../workloads/records";
import { recentlyEndedSince, resolveWorkload, type WorkloadWords } from "../workloads/lookup";
import { DEPLOYMENT_STOPPED } from "../reconciler/idle";
import type { InFlightCounts } from "./in-flight";
import { defaultTargetInflight, isDraining, isLiveReplica, readDeploymentSpec, toDeploymentRecord, type DeploymentSpec } from "./records";
import { readScale, readScaling } from "./scaling-request";
import { changeDeploymentAdapter } from "./adapters";
import type { AdapterChangeDeps } from "../services/adapter-changes";

export const DEPLOYMENT_WORDS: WorkloadWords = { one: "deployment", many: "deployments", cli: "svc" };
/** The reason a replica left STOPPED at MIN 0 keeps until a request starts it. */
export const SCALED_TO_ZERO = "scaled to 0: starts on the first request";
/** The longest name a replica may have: a Slurm job name's limit, on every engine alike. */
const REPLICA_NAME_LENGTH = 63;

export interface DeploymentsDeps {
  store: DeploymentStore;
  services: ServiceStore;
  /** Plans, records, submits, restarts, stops and removes the replicas, as for any service. */
  replicas: Pick<ServicesService, "plan" | "insertRecord" | "submitRecord" | "restart" | "stopWithReason" | "remove">;
  inFlight: InFlightCounts;
  /** The registry and profiles an adapter change is checked against (svc adapter add|rm). */
  planner?: AdapterChangeDeps["planner"];
  wake(): void;
  log?(message: string): void;
}

/** svc run --replicas, and the deployments API: list, details, scale, stop, remove. */
export class DeploymentsService {
  constructor(private readonly deps: DeploymentsDeps) {}

  /** POST /api/services with `scaling`: planned once (a dry run renders the first replica's script), then the deployment and its first replicas. */
  async run(request: RunRequest, scaling: ScalingRequest): Promise<RunResponse> {
    const { store, services, replicas } = this.deps;
    const name = request.name ?? unusedName("svc-", [...services.live(), ...store.active()]);
    if (store.named(name).some((row) => row.status === "ACTIVE")) throw conflict(`A deployment named ${name} is active: choose another --name, or stop that one first ('svc stop ${name}').`);
    // The bounds are checked before the launch is planned (a 400 at once); the default target needs the plan's server.
    readScaling(scaling, () => 1);
    const longest = `${name}-${MAX_REPLICAS}`;
    if (longest.length > REPLICA_NAME_LENGTH) {
      throw badRequest(`--name ${name}: a deployment's replicas are named ${name}-1 to ${longest}, at most ${REPLICA_NAME_LENGTH} characters (a Slurm job name); give a name of at most ${REPLICA_NAME_LENGTH - longest.length + name.length} characters.`, { field: "name" });
    }
    const firstId = randomUUID();
    const { base, template } = await replicas.plan(request, `${name}-1`, firstId);
    const columns = readScaling(scaling, () => defaultTargetInflight(template.runtime, template.spec.engineArgs));
    // Every replica is on demand: at MIN 0 (or when all are down) the first request to the model starts one.
    const spec: DeploymentSpec = { template: { ...template, onDemand: true } };
    base.policies = policiesOf(spec.template);
    if (request.dryRun) return { ...base, service: null };
    const now = new Date().toISOString();
    const row: DeploymentRow = {
      id: randomUUID(),
      name,
      task: template.task,
      model: template.model,
      revision: template.revision,
      profile: template.profile,
      engine: template.engine,
      status: "ACTIVE",
      ...columns,
      spec: JSON.stringify(spec),
      createdBy: currentUserName(),
      createdAt: now,
      updatedAt: now,
    };
    const bounds = `${columns.min}..${columns.max}`;
    store.insert(row, { from: 0, to: columns.min, message: `created with ${bounds} replicas${columns.min === 0 ? `: none runs until the first request` : ""}` });
    const made: ServiceRow[] = [];
    for (let index = 1; index <= Math.max(columns.min, 1); index++) {
      const status = index <= columns.min ? "SUBMITTED" : "STOPPED";
      made.push(replicas.insertRecord(spec.template, { id: index === 1 ? firstId : randomUUID(), name: `${name}-${index}`, status, reason: status === "STOPPED" ? SCALED_TO_ZERO : `submitted to ${row.engine}: replica ${index} of ${name} (MIN ${columns.min})`, deploymentId: row.id }));
    }
    const notes: string[] = [];
    try {
      for (const replica of made.filter((r) => r.status === "SUBMITTED")) notes.push(...(await replicas.submitRecord(replica)));
    } catch (error) {
      // A refused first replica would be retried on every tick: the deployment stops, saying why.
      store.update(row.id, { status: "STOPPED" }, { from: 0, to: 0, message: `stopped: the engine did not start a replica (${(error as Error).message})` });
      throw error;
    }
    return { ...base, warnings: [...base.warnings, ...notes], service: toServiceRecord(services.get(made[0].id)!), deployment: this.record(store.get(row.id)!) };
  }

  /** Starts `count` replicas of an ACTIVE deployment: stopped replica records first (same ids), then new ones. */
  async startReplicas(deployment: DeploymentRow, count: number, reason: string): Promise<void> {
    const { services, replicas } = this.deps;
    const current = services.replicasOf([deployment.id]).get(deployment.id) ?? [];
    const dormant = current.filter((row) => !isLive(row.status) && row.status !== "STOPPING");
    let next = Math.max(0, ...current.map((row) => Number(/-(\d+)$/.exec(row.name)?.[1] ?? 0))) + 1;
    for (let i = 0; i < count; i++) {
      try {
        if (dormant[i]) await replicas.restart(dormant[i].id, { reason, forDeployment: true });
        else {
          const name = `${deployment.name}-${next++}`;
          await replicas.submitRecord(replicas.insertRecord(readDeploymentSpec(deployment).template, { id: randomUUID(), name, status: "SUBMITTED", reason, deploymentId: deployment.id }));
        }
      } catch (error) {
        // The replica's own record says FAILED and why; the scaler restores MIN later.
        this.deps.log?.(`deployment ${deployment.name}: a replica did not start: ${(error as Error).message}`);
      }
    }
  }

  /** Active deployments and those stopped in the last 24 hours (`all`: every one), newest first. */
  list(filter: { all?: boolean }, now = new Date()): DeploymentRecord[] {
    const rows = this.deps.store.list({ all: filter.all, endedSince: recentlyEndedSince(now) });
    const replicas = this.deps.services.replicasOf(rows.map((row) => row.id));
    return rows.map((row) => toDeploymentRecord(row, replicas.get(row.id) ?? [], this.deps.inFlight));
  }

  resolve(ref: string): DeploymentRow {
    return resolveWorkload(this.deps.store, ref, DEPLOYMENT_WORDS);
  }

  details(ref: string): DeploymentDetails {
    const row = this.resolve(ref);
    const replicas = this.replicasOf(row);
    const events = this.deps.services.eventsOf(replicas.map((replica) => replica.id));
    return {
      ...toDeploymentRecord(row, replicas, this.deps.inFlight),
      replicas: replicas.map((replica) => toServiceRecord(replica, events.get(replica.id) ?? [])),
      events: this.deps.store.events(row.id),
    };
  }

  /** svc scale: new bounds (or any scaling field given); a STOPPED deployment becomes ACTIVE again. */
  scale(ref: string, request: ScaleRequest): DeploymentRecord {
    const row = this.resolve(ref);
    const patch = readScale(request);
    const min = patch.min ?? row.min;
    const max = patch.max ?? row.max;
    const live = this.replicasOf(row).filter(isLiveReplica).length;
    const changes = [
      ...(patch.min !== undefined ? [`replicas ${min}..${max}`] : []),
      ...(patch.targetInflight !== undefined ? [`target ${patch.targetInflight} in flight per replica`] : []),
      ...(patch.scaleUpAfterSeconds !== undefined ? [`scale up after ${request.scaleUpAfter}`] : []),
      ...(patch.scaleDownAfterSeconds !== undefined ? [`scale down after ${request.scaleDownAfter}`] : []),
      ...(patch.routing !== undefined ? [`routing ${patch.routing}`] : []),
    ];
    const restarted = row.status === "STOPPED";
    const message = `${restarted ? "started again" : "scaled"} by its creator${changes.length ? `: ${changes.join(", ")}` : ""}`;
    this.deps.store.update(row.id, { ...patch, status: "ACTIVE" }, { from: live, to: live, message });
    this.deps.wake();
    return this.record(this.deps.store.get(row.id)!);
  }

  /**
   * svc stop on a deployment: scaling off; replicas on their way up stop now, HEALTHY ones drain
   * (the gateway sends them nothing new) and the scaler stops each once it has no request in flight.
   */
  async stop(ref: string): Promise<DeploymentRecord> {
    const row = this.resolve(ref);
    const replicas = this.replicasOf(row);
    const live = replicas.filter(isLiveReplica);
    if (row.status === "STOPPED" && !replicas.some((replica) => isLive(replica.status))) throw conflict(`Deployment ${row.name} is already STOPPED; nothing to stop.`);
    this.deps.store.update(row.id, { status: "STOPPED" }, { from: live.length, to: 0, message: `${DEPLOYMENT_STOPPED} by its creator: every replica drains and stops` });
    const now = new Date().toISOString();
    for (const replica of replicas) {
      if (replica.status === "HEALTHY") {
        if (!isDraining(replica)) this.deps.services.patch(replica.id, { drainingSince: now });
      } else if (isLive(replica.status) && replica.status !== "STOPPING") await this.deps.replicas.stopWithReason(replica.id, `${DEPLOYMENT_STOPPED} by its creator`);
    }
    this.deps.wake();
    return this.record(this.deps.store.get(row.id)!);
  }

  /** svc rm on a deployment: its replicas' records and its own; a live one (ACTIVE, or a replica still live) only with force, its replicas stopped first. */
  async remove(ref: string, force: boolean): Promise<DeploymentRecord> {
    const row = this.resolve(ref);
    const replicas = this.replicasOf(row);
    const live = row.status === "ACTIVE" || replicas.some((replica) => isLive(replica.status));
    if (live && !force) throw conflict(`Deployment ${row.name} is ${row.status === "ACTIVE" ? "ACTIVE" : "still stopping its replicas"}: stop it first ('svc stop ${row.name}'), or remove it with --force.`);
    const last = this.record(row);
    if (row.status === "ACTIVE") this.deps.store.update(row.id, { status: "STOPPED" }, { from: last.healthy + last.coming, to: 0, message: "removed by its creator" });
    for (const replica of replicas) await this.deps.replicas.remove(replica.id, true);
    this.deps.store.remove(row.id);
    return { ...last, status: "STOPPED" };
  }

  private replicasOf(row: DeploymentRow): ServiceRow[] {
    return this.deps.services.replicasOf([row.id]).get(row.id) ?? [];
  }

  /** svc adapter add|rm on a deployment: every replica, and the replicas to come (see deployments/adapters.ts). */
  async changeAdapter(ref: string, adapter: string, add: boolean): Promise<DeploymentRecord> {
    const row = this.resolve(ref);
    if (!this.deps.planner) throw new Error("the deployments service was made without the planner its adapter changes need");
    await changeDeploymentAdapter({ store: this.deps.store, changes: { store: this.deps.services, planner: this.deps.planner } }, row, this.replicasOf(row), adapter, add);
    return this.record(this.deps.store.get(row.id)!);
  }

  private record(row: DeploymentRow): DeploymentRecord {
    return toDeploymentRecord(row, this.replicasOf(row), this.deps.inFlight);
  }
}
