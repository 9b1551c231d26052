import { ApiError, conflict, isLive, notFound } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import { serverOf } from "../engines/api-key";
import { changeLora } from "../engines/lora-updates";
import { modelMount } from "../engines/model-folder";
import { adapterArgs, chooseAdapters, givenValue, seenIn, withoutAdapterArgs, type AdapterLaunch } from "../launch/adapters";
import type { PlannerDeps } from "../launch/planner";
import { readSpec, type StoredSpec } from "./records";

export interface AdapterChangeDeps {
  store: ServiceStore;
  planner: Pick<PlannerDeps, "profile" | "models" | "capabilities">;
}

/** What an adapter change is checked against: a service, or the template a deployment's replicas are made from. */
export type AdapterTarget = Pick<ServiceRow, "name" | "task" | "profile" | "model" | "revision" | "runtime"> & { spec: StoredSpec };

const targetOf = (row: ServiceRow): AdapterTarget => ({ ...row, spec: readSpec(row) });

/**
 * `svc adapter add SERVICE ADAPTER`: a HEALTHY service loads one more LoRA adapter without a
 * restart (svc's runtime and vLLM through /v1/load_lora_adapter, SGLang /load_lora_adapter); a
 * stopped one serves it from its next start. Checked against its model as at `svc run --adapter`,
 * and within what the engine was started with (see checkedAdapter). Recorded as an event.
 */
export async function addAdapter(deps: AdapterChangeDeps, row: ServiceRow, name: string, options: { replica?: boolean } = {}): Promise<ServiceRow> {
  if (!options.replica) notReplica(row);
  const target = targetOf(row);
  const adapter = await checkedAdapter(deps, target, name);
  const live = isLive(row.status);
  if (live) await changeLora(runningUrl(row, "load an adapter"), row.apiKey, serverOf(row.runtime), { load: { name, path: adapter.path } });
  const spec = respec(target, [...(target.spec.launch.adapters ?? []), adapter]);
  return store(deps.store, row, spec, `LoRA adapter ${name} added${live ? "; served without a restart" : ": served from the next start"}`);
}

/** `svc adapter rm SERVICE ADAPTER`: a HEALTHY service unloads it at once; a stopped one starts without it. Recorded as an event. */
export async function removeAdapter(deps: AdapterChangeDeps, row: ServiceRow, name: string, options: { replica?: boolean } = {}): Promise<ServiceRow> {
  if (!options.replica) notReplica(row);
  const target = targetOf(row);
  servedOrRefuse(target, name);
  const live = isLive(row.status);
  if (live) await changeLora(runningUrl(row, "unload an adapter"), row.apiKey, serverOf(row.runtime), { unload: name });
  const spec = respec(target, (target.spec.launch.adapters ?? []).filter((adapter) => adapter.name !== name));
  return store(deps.store, row, spec, `LoRA adapter ${name} removed${live ? "; its requests now get 404, the model's are served as before" : ": the next start is without it"}`);
}

/**
 * The adapter `name` for `target`, checked as at `svc run --adapter` and against what its engine
 * was started with: not served already, text generation, LoRA enabled (vLLM and SGLang load
 * adapters while they run only when started with them), a rank within its --max-lora-rank, and
 * in a container, a folder the container sees.
 */
export async function checkedAdapter(deps: Pick<AdapterChangeDeps, "planner">, target: AdapterTarget, name: string): Promise<AdapterLaunch> {
  const { spec } = target;
  if ((spec.launch.adapters ?? []).some((adapter) => adapter.name === name)) throw conflict(`${target.name} serves ${name} already.`);
  if (target.task !== "text-generation") throw new ApiError(400, "invalid_request", `${target.name} is ${target.task}: LoRA adapters are served on text-generation models.`, { field: "adapter" });
  const server = serverOf(target.runtime);
  if (server !== "svc" && !spec.launch.args.includes("--enable-lora")) {
    throw conflict(`${target.name} was started without LoRA adapters, and ${server} loads them while it runs only when started with them: stop it and run it again with --adapter ${name}.`);
  }
  const base = (await deps.planner.models(target.profile, target.model)).find((model) => model.revision === target.revision && !model.adapter);
  if (!base) throw conflict(`The model of ${target.name} (${target.model}@${target.revision.slice(0, 12)}) is no longer in the registry of profile ${target.profile}: its adapters cannot be checked against it.`);
  const profile = await deps.planner.profile(target.profile);
  const capabilities = deps.planner.capabilities(profile);
  const [adapter] = (await chooseAdapters({ adapters: [name], task: target.task, engineArgs: spec.engineArgs }, base, server, (repo) => deps.planner.models(target.profile, repo), capabilities)).adapters;
  if (server !== "svc") {
    const started = Number(givenValue(server, spec.launch.args, "--max-lora-rank") ?? 16);
    if ((adapter.rank ?? 0) > started) {
      throw new ApiError(400, "invalid_request", `${name} has rank ${adapter.rank}, above the --max-lora-rank ${started} ${target.name} was started with: stop it and run it again with its adapters and --adapter ${name} (svc sets the rank from them).`, { field: "adapter" });
    }
  }
  const folder = modelMount(adapter.model.modelDir);
  if (capabilities.runsImages && !seenIn(folder, spec.launch.mounts ?? [], { modelDir: spec.launch.modelDir })) {
    throw conflict(`The container of ${target.name} does not see ${folder}, where ${name} is: stop it and run it again with --adapter ${name}.`);
  }
  return { name, path: adapter.path, ...(adapter.rank !== undefined ? { rank: adapter.rank } : {}) };
}

/** 404 when `target` does not serve `name`. */
export function servedOrRefuse(target: AdapterTarget, name: string): void {
  const served = target.spec.launch.adapters ?? [];
  if (!served.some((adapter) => adapter.name === name)) {
    throw notFound(`${target.name} does not serve ${name}${served.length ? `; it serves ${served.map((adapter) => adapter.name).join(", ")}` : ""}.`);
  }
}

/** A deployment's replicas all serve what the deployment serves: changing one would leave /v1 routing an adapter to some replicas only. */
function notReplica(row: ServiceRow): void {
  if (row.deploymentId) {
    throw conflict(`Service ${row.name} is a replica of deployment ${row.deploymentId}: change the deployment's adapters ('svc adapter add|rm ${row.deploymentId.slice(0, 13)} ADAPTER'), which all its replicas serve.`);
  }
}

/** Where a HEALTHY service answers; 409 for any other live state. */
function runningUrl(row: ServiceRow, what: string): string {
  if (row.status !== "HEALTHY" || !row.host || !row.port) throw conflict(`Service ${row.name} is ${row.status}: only a HEALTHY (or a stopped) service can ${what}.`);
  return `http://${row.host.includes(":") ? `[${row.host}]` : row.host}:${row.port}`;
}

/**
 * `target`'s spec with `next` as its adapters: their names, and the engine's arguments for the next
 * start (svc's adapter options rewritten, the user's left as given; a GPU engine keeps LoRA
 * enabled at the rank it was started with, so adapters can be added again).
 */
export function respec(target: AdapterTarget, next: AdapterLaunch[]): StoredSpec {
  const { spec } = target;
  const server = serverOf(target.runtime);
  const { args } = spec.launch;
  const own = args.slice(0, args.length - spec.engineArgs.length);
  const rank = server === "svc" ? undefined : givenValue(server, own, "--max-lora-rank");
  const enabled = server !== "svc" && own.includes("--enable-lora") ? { rank: Number(rank ?? 0) } : undefined;
  const launchArgs = [...withoutAdapterArgs(own), ...adapterArgs(server, next, spec.engineArgs, enabled), ...spec.engineArgs];
  const { adapters: _, ...rest } = spec;
  return { ...rest, ...(next.length ? { adapters: next.map((adapter) => adapter.name) } : {}), launch: { ...spec.launch, args: launchArgs, adapters: next } };
}

function store(services: ServiceStore, row: ServiceRow, spec: StoredSpec, reason: string): ServiceRow {
  return services.note(row.id, reason, { spec: JSON.stringify(spec) })!;
}
