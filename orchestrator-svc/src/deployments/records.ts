import { CPU_TEXT_GENERATION_OPTIONS, isBusy, isOnItsWayUp, parseEngineArgs, type DeploymentRecord } from "@svc/contracts";
import type { DeploymentRow } from "../db/deployment-store";
import type { ServiceRow } from "../db/service-store";
import type { ServiceTemplate } from "../services/service";
import { serverOf } from "../engines/api-key";
import type { InFlightCounts } from "./in-flight";

/** What the `spec` column of a deployment holds: what each of its replicas is made from. */
export interface DeploymentSpec {
  template: ServiceTemplate;
}

export const readDeploymentSpec = (row: DeploymentRow) => JSON.parse(row.spec) as DeploymentSpec;

/** A replica the scaler counts: HEALTHY and not draining, or on its way up (a queued one counts as coming, so the scaler does not pile submissions behind it). */
export const isServing = (row: ServiceRow) => row.status === "HEALTHY" && row.drainingSince === null;
export const isComing = (row: ServiceRow) => isOnItsWayUp(row.status) && row.drainingSince === null;
export const isLiveReplica = (row: ServiceRow) => isServing(row) || isComing(row);
export const isDraining = (row: ServiceRow) => row.drainingSince !== null && (row.status === "HEALTHY" || isBusy(row.status));

/** Requests the svc CPU runtime serves at once without --parallel (runtimes/text-generation: engine-settings.ts). */
const SVC_RUNTIME_PARALLEL = 1;
/** vLLM and SGLang batch many requests at once: this many in flight per replica before the scaler adds one. */
export const GPU_SERVER_TARGET_INFLIGHT = 32;

/** The default --target-inflight: the engine's concurrency (the svc runtime's --parallel slots; a fixed number for vLLM and SGLang). */
export function defaultTargetInflight(runtime: string, engineArgs: string[]): number {
  if (serverOf(runtime) !== "svc") return GPU_SERVER_TARGET_INFLIGHT;
  const parallel = parseEngineArgs(engineArgs, CPU_TEXT_GENERATION_OPTIONS).values["--parallel"];
  return typeof parallel === "number" && parallel >= 1 ? parallel : SVC_RUNTIME_PARALLEL;
}

/** A deployment as the API shows it, with its replicas' counts now. */
/** The adapters the deployment's template serves (its replicas and those to come). */
function adaptersOf(row: DeploymentRow): Pick<DeploymentRecord, "adapters"> {
  const adapters = readDeploymentSpec(row).template.spec.adapters;
  return adapters?.length ? { adapters } : {};
}

export function toDeploymentRecord(row: DeploymentRow, replicas: ServiceRow[], inFlight: InFlightCounts): DeploymentRecord {
  return {
    id: row.id,
    name: row.name,
    task: row.task,
    model: row.model,
    revision: row.revision,
    profile: row.profile,
    engine: row.engine,
    status: row.status,
    min: row.min,
    max: row.max,
    targetInflight: row.targetInflight,
    scaleUpAfterSeconds: row.scaleUpAfterSeconds,
    scaleDownAfterSeconds: row.scaleDownAfterSeconds,
    routing: row.routing,
    healthy: replicas.filter(isServing).length,
    coming: replicas.filter(isComing).length,
    inFlight: replicas.reduce((sum, replica) => sum + inFlight.of(replica.id), 0),
    ...adaptersOf(row),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
