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

/**
 * `svc adapter add SERVICE ADAPTER`: a HEALTHY service loads one more LoRA adapter without a
 * restart (svc's runtime and vLLM through /v1/load_lora_adapter, SGLang /load_lora_adapter),
 * checked against its model as at `svc run --adapter`, and within what the running engine was
 * started with (LoRA enabled, its --max-lora-rank, what its container sees). Recorded as an event;
 * a restart starts it with the adapter.
 */
export async function addAdapter(deps: AdapterChangeDeps, row: ServiceRow, name: string): Promise<ServiceRow> {
  notReplica(row);
  const spec = readSpec(row);
  const served = spec.launch.adapters ?? [];
  if (served.some((adapter) => adapter.name === name)) throw conflict(`Service ${row.name} serves ${name} already.`);
  if (row.task !== "text-generation") throw new ApiError(400, "invalid_request", `Service ${row.name} is ${row.task}: LoRA adapters are served on text-generation models.`, { field: "adapter" });
  const url = runningUrl(row, "load an adapter");
  const server = serverOf(row.runtime);
  if (server !== "svc" && !spec.launch.args.includes("--enable-lora")) {
    throw conflict(`Service ${row.name} was started without LoRA adapters, and ${server} loads them while it runs only when started with them: stop it and run it again with --adapter ${name}.`);
  }
  const base = (await deps.planner.models(row.profile, row.model)).find((model) => model.revision === row.revision && !model.adapter);
  if (!base) throw conflict(`The model of service ${row.name} (${row.model}@${row.revision.slice(0, 12)}) is no longer in the registry of profile ${row.profile}: its adapters cannot be checked against it.`);
  const profile = await deps.planner.profile(row.profile);
  const capabilities = deps.planner.capabilities(profile);
  const [adapter] = (await chooseAdapters({ adapters: [name], task: row.task, engineArgs: spec.engineArgs }, base, server, (repo) => deps.planner.models(row.profile, repo), capabilities)).adapters;
  if (server !== "svc") {
    const started = Number(givenValue(server, spec.launch.args, "--max-lora-rank") ?? 16);
    if ((adapter.rank ?? 0) > started) {
      throw new ApiError(400, "invalid_request", `${name} has rank ${adapter.rank}, above the --max-lora-rank ${started} service ${row.name} was started with: stop it and run it again with its adapters and --adapter ${name} (svc sets the rank from them).`, { field: "adapter" });
    }
  }
  const folder = modelMount(adapter.model.modelDir);
  if (capabilities.runsImages && !seenIn(folder, spec.launch.mounts ?? [], { modelDir: spec.launch.modelDir })) {
    throw conflict(`The container of service ${row.name} does not see ${folder}, where ${name} is: stop it and run it again with --adapter ${name}.`);
  }
  await changeLora(url, row.apiKey, server, { load: { name, path: adapter.path } });
  const next = [...served, { name, path: adapter.path, ...(adapter.rank !== undefined ? { rank: adapter.rank } : {}) }];
  return record(deps.store, row, spec, next, `LoRA adapter ${name} added; served without a restart`);
}

/** `svc adapter rm SERVICE ADAPTER`: a HEALTHY service unloads it at once; a stopped one starts without it. Recorded as an event. */
export async function removeAdapter(deps: AdapterChangeDeps, row: ServiceRow, name: string): Promise<ServiceRow> {
  notReplica(row);
  const spec = readSpec(row);
  const served = spec.launch.adapters ?? [];
  if (!served.some((adapter) => adapter.name === name)) {
    throw notFound(`Service ${row.name} does not serve ${name}${served.length ? `; it serves ${served.map((adapter) => adapter.name).join(", ")}` : ""}.`);
  }
  const live = isLive(row.status);
  if (live) await changeLora(runningUrl(row, "unload an adapter"), row.apiKey, serverOf(row.runtime), { unload: name });
  const next = served.filter((adapter) => adapter.name !== name);
  return record(deps.store, row, spec, next, `LoRA adapter ${name} removed${live ? "; its requests now get 404, the model's are served as before" : ": the next start is without it"}`);
}

/** A deployment's replicas all serve what the deployment was run with: changing one would leave /v1 routing an adapter to some replicas only. */
function notReplica(row: ServiceRow): void {
  if (row.deploymentId) {
    throw conflict(`Service ${row.name} is a replica of deployment ${row.deploymentId}: its replicas serve the adapters the deployment was run with ('svc run … --replicas … --adapter NAME'); changing one replica's is refused.`);
  }
}

/** Where a HEALTHY service answers; 409 for any other state. */
function runningUrl(row: ServiceRow, what: string): string {
  if (row.status !== "HEALTHY" || !row.host || !row.port) throw conflict(`Service ${row.name} is ${row.status}: only a HEALTHY service can ${what} while it runs.`);
  return `http://${row.host.includes(":") ? `[${row.host}]` : row.host}:${row.port}`;
}

/** The spec with `next` as its adapters (names, and the engine's arguments for the next start, LoRA still enabled on a GPU engine), and the event. */
function record(store: ServiceStore, row: ServiceRow, spec: StoredSpec, next: AdapterLaunch[], reason: string): ServiceRow {
  const server = serverOf(row.runtime);
  const { args } = spec.launch;
  const own = args.slice(0, args.length - spec.engineArgs.length);
  const rank = server === "svc" ? undefined : givenValue(server, own, "--max-lora-rank");
  const enabled = server !== "svc" && own.includes("--enable-lora") ? { rank: Number(rank ?? 0) } : undefined;
  const launchArgs = [...withoutAdapterArgs(own), ...adapterArgs(server, next, spec.engineArgs, enabled), ...spec.engineArgs];
  const { adapters: _, ...rest } = spec;
  const updated: StoredSpec = {
    ...rest,
    ...(next.length ? { adapters: next.map((adapter) => adapter.name) } : {}),
    launch: { ...spec.launch, args: launchArgs, adapters: next },
  };
  return store.note(row.id, reason, { spec: JSON.stringify(updated) })!;
}
