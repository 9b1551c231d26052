import { formatDuration, imageOf, isRunningOnEngine, type ServicePolicyState, type ServiceSuccessor, type JobOptions, type RunRequest, type ServiceDetails, type ServiceEvent, type ServiceRecord, type ServiceStatus, type Placement } from "@svc/contracts";
import type { ServiceRow } from "../db/service-store";
import type { LaunchSpec, Mount } from "../engines/engine";
import { identityOf } from "../workloads/records";
import { KIND_TRAITS } from "../engines/kind-traits";
import type { AdapterLaunch } from "../launch/adapters";

/** What the `spec` column holds: the options as given, and how the service was launched (for restart). */
export interface StoredSpec {
  job: JobOptions;
  textGeneration?: RunRequest["textGeneration"];
  speechRecognition?: RunRequest["speechRecognition"];
  engineArgs: string[];
  /** `--mount` folders as given. */
  mounts?: string[];
  gracePeriod?: number;
  /** `--image` as given. */
  image?: string;
  /** The LoRA adapters served on the model (`--adapter`), by repo id: its other models of /v1. */
  adapters?: string[];
  /** Records written before the image had its own name carry it as `runtime`. */
  launch: { image?: string; runtime?: string; args: string[]; modelDir: string; inputDir?: string; mounts?: Mount[]; placement?: Placement; adapters?: AdapterLaunch[] };
}

export const readSpec = (row: ServiceRow) => JSON.parse(row.spec) as StoredSpec;

/** What to launch again on restart: the same image, arguments, key, model and job options. */
export function launchOf(row: ServiceRow): Omit<LaunchSpec, "serviceId" | "name" | "task"> {
  const { job, launch, gracePeriod } = readSpec(row);
  return {
    mounts: launch.mounts ?? [],
    ...(gracePeriod !== undefined ? { gracePeriod } : {}),
    image: launch.image ?? launch.runtime ?? row.runtime,
    args: launch.args,
    apiKey: row.apiKey ?? undefined,
    modelDir: launch.modelDir,
    inputDir: launch.inputDir,
    job,
    ...(launch.placement ? { placement: launch.placement } : {}),
  };
}

/** Seconds the engine has run the service, over all its runs, from its events (up to `now` while it runs). */
export function runningSecondsOf(events: ServiceEvent[], now = new Date()): number {
  let total = 0;
  let since: number | undefined;
  for (const event of events) {
    const at = Date.parse(event.at);
    if (isRunningOnEngine(event.to)) since ??= at;
    else if (since !== undefined) {
      total += at - since;
      since = undefined;
    }
  }
  if (since !== undefined) total += now.getTime() - since;
  return Math.max(0, Math.round(total / 1000));
}

/** Running time and, on Slurm, the GPU-hours allocated (GRES per node × nodes × elapsed). */
export function timeOf(row: ServiceRow, events: ServiceEvent[], now = new Date(), job = readSpec(row).job): Pick<ServiceRecord, "runningSeconds" | "gpuHours"> {
  const runningSeconds = runningSecondsOf(events, now);
  const gpus = (job.gres ?? 0) * (job.nodes ?? 1);
  return { runningSeconds, gpuHours: KIND_TRAITS[row.engine].countsGpuHours ? Math.round(((gpus * runningSeconds) / 3600) * 1000) / 1000 : null };
}

/** A record as the API shows it: never the API key; with its running time when its events are given. */
export function toServiceRecord(row: ServiceRow, events?: ServiceEvent[]): ServiceRecord {
  const spec = readSpec(row);
  const task = row.task;
  return {
    ...identityOf(row),
    image: imageOf(task),
    reason: row.reason,
    host: row.host,
    port: row.port,
    url: row.host && row.port ? `http://${row.host.includes(":") ? `[${row.host}]` : row.host}:${row.port}` : null,
    runtime: row.runtime,
    handle: row.handle,
    apiKeySet: row.apiKey !== null,
    job: spec.job,
    ...(spec.textGeneration ? { textGeneration: spec.textGeneration } : {}),
    ...(spec.speechRecognition ? { speechRecognition: spec.speechRecognition } : {}),
    engineArgs: spec.engineArgs,
    ...(spec.adapters?.length ? { adapters: spec.adapters } : {}),
    policies: policiesOf(row),
    lastRequestAt: row.lastRequestAt,
    endsAt: row.endsAt,
    successor: successorView(row),
    ...(spec.mounts?.length ? { mounts: spec.mounts } : {}),
    ...(spec.gracePeriod !== undefined ? { gracePeriod: spec.gracePeriod } : {}),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(events ? timeOf(row, events, undefined, spec.job) : {}),
    deployment: row.deploymentId,
  };
}

/** The policies as the API shows them, durations in words. */
export function policiesOf(row: Pick<ServiceRow, "idleStopSeconds" | "onDemand" | "startTimeoutSeconds" | "renewBeforeSeconds">): ServicePolicyState {
  return {
    idleStop: row.idleStopSeconds === null ? null : formatDuration(row.idleStopSeconds),
    idleStopSeconds: row.idleStopSeconds,
    onDemand: row.onDemand,
    startTimeout: formatDuration(row.startTimeoutSeconds),
    startTimeoutSeconds: row.startTimeoutSeconds,
    renew: row.renewBeforeSeconds !== null,
    renewBefore: row.renewBeforeSeconds === null ? null : formatDuration(row.renewBeforeSeconds),
    renewBeforeSeconds: row.renewBeforeSeconds,
  };
}

/** What the `successor` column holds. */
export interface StoredSuccessor {
  phase: ServiceSuccessor["phase"];
  /** The successor's handle (submitting: null until sbatch answered); draining: the old job's. */
  handle: string | null;
  generation: number;
  since: string;
}

export const readSuccessor = (row: Pick<ServiceRow, "successor">): StoredSuccessor | null => (row.successor ? (JSON.parse(row.successor) as StoredSuccessor) : null);

function successorView(row: ServiceRow): ServiceSuccessor | null {
  const successor = readSuccessor(row);
  return successor ? { phase: successor.phase, handle: successor.handle, since: successor.since } : null;
}

/** Start-up phases of the latest run (after the last SUBMITTED), derived from the events. */
export function phasesOf(events: ServiceEvent[]): ServiceDetails["phases"] {
  const lastSubmit = events.findLastIndex((e) => e.to === "SUBMITTED");
  const run = lastSubmit >= 0 ? events.slice(lastSubmit) : events;
  const first = (status: ServiceStatus) => run.find((e) => e.to === status)?.at ?? null;
  return { queued: first("SUBMITTED"), starting: first("STARTING") ?? first("HEALTHY"), ready: first("HEALTHY") };
}

export function toServiceDetails(row: ServiceRow, events: ServiceEvent[]): ServiceDetails {
  return { ...toServiceRecord(row, events), phases: phasesOf(events), events };
}
