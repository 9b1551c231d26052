import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { adapterFit, ApiError, badRequest, isRepoId, type InferenceServer, type Model, type RunRequest } from "@svc/contracts";
import type { EngineCapabilities, Mount } from "../engines/engine";
import { GPU_SERVERS, givenOptions } from "../engines/gpu-servers";
import { modelMount } from "../engines/model-folder";
import { SYSTEM_FOLDERS } from "./data-paths";

/** A LoRA adapter a service serves on its model: its /v1 name (the adapter's repo id), where its weights are, and its registry row. */
export interface ServedAdapter extends AdapterLaunch {
  model: Model;
}

/** What the engine's arguments say of an adapter (and a service's record keeps, to start it again). */
export interface AdapterLaunch {
  name: string;
  /** What the engine loads: a GGUF file (svc's runtime), a PEFT folder (vLLM, SGLang). */
  path: string;
  rank?: number;
}

/** The largest LoRA rank each GPU engine can be started with (vLLM's `--max-lora-rank` choices end at 512; SGLang takes any). */
const MAX_RANK: Partial<Record<InferenceServer, number>> = { vllm: 512 };
/** vLLM's `--max-lora-rank` takes these values only. */
const VLLM_RANKS = [1, 8, 16, 32, 64, 128, 256, 320, 512];

const CPU_PEFT = "the CPU runtime serves GGUF LoRA adapters; convert with llama.cpp's convert_lora_to_gguf.py or run on vLLM/SGLang (--gres N)";

/** Where an adapter's weights are: the GGUF file itself, or the folder of a PEFT adapter's files. */
export function adapterPath(model: Model): string {
  const file = join(model.modelDir, model.adapter!.file);
  return model.adapter!.kind === "gguf" ? file : dirname(file);
}

/**
 * The run's `--adapter`s, each looked up in the registry of the run's profile and checked against
 * the base before anything starts: it must be a LoRA adapter of a kind the server applies, fit the
 * base's sizes (adapterFit), have its weights (on this machine; a cluster's job checks on its node),
 * a rank the engine takes, and a name no other model of the service has.
 */
export async function chooseAdapters(
  request: Pick<RunRequest, "adapters" | "task" | "engineArgs">,
  base: Model,
  server: InferenceServer,
  models: (repo: string) => Promise<Model[]>,
  capabilities: Pick<EngineCapabilities, "dataPaths">,
): Promise<{ adapters: ServedAdapter[]; warnings: string[] }> {
  const names = request.adapters ?? [];
  if (names.length === 0) return { adapters: [], warnings: [] };
  const field = { field: "adapters" };
  if (request.task !== "text-generation") throw badRequest(`--adapter applies to text-generation only: ${request.task} models take no LoRA adapters.`, field);
  const adapters: ServedAdapter[] = [];
  const warnings: string[] = [];
  for (const name of names) {
    if (!isRepoId(name)) throw badRequest(`--adapter ${JSON.stringify(name)}: name an adapter by its repo id, <owner>/<name>, as 'svc model ls --kind adapter' lists it.`, field);
    if (name === base.repo) throw badRequest(`--adapter ${name}: that is the model itself; an adapter is served under its own name beside its base's.`, field);
    if (adapters.some((adapter) => adapter.name === name)) throw badRequest(`--adapter ${name} is given twice.`, field);
    const model = await oneAdapter(name, base, models);
    checkKind(model, server);
    const fit = adapterFit({ repo: model.repo, facts: model.facts, adapter: model.adapter! }, { repo: base.repo, facts: base.facts, adapter: base.adapter });
    if (!fit.fits) throw badRequest(`--adapter ${name} does not fit ${base.repo}: ${fit.problems.join(" ")}`, field);
    warnings.push(...fit.notes.map((note) => `--adapter ${name}: ${note}`));
    const path = adapterPath(model);
    if (capabilities.dataPaths === "this-machine" && !existsSync(path)) {
      throw badRequest(`--adapter ${name}: its weights are missing (${path}); download it again with 'svc model add ${name} --profile ${model.profile}'.`, field);
    }
    adapters.push({ name, path, model, ...(model.adapter!.rank !== undefined ? { rank: model.adapter!.rank } : {}) });
  }
  checkRank(adapters, server, request.engineArgs ?? []);
  return { adapters, warnings };
}

/** The rows that are adapters, the most recently registered first. */
const adapterRowsOf = (rows: readonly Model[]) => rows.filter((row) => row.adapter).sort((a, b) => b.seenAt.localeCompare(a.seenAt));

/** The newest registered snapshot of `name` that is an adapter; a 4xx saying why there is none. */
async function oneAdapter(name: string, base: Model, models: (repo: string) => Promise<Model[]>): Promise<Model> {
  const rows = await models(name);
  if (rows.length === 0) {
    throw new ApiError(404, "adapter_not_found", `--adapter ${name} is not in the registry of profile ${base.profile}: 'svc model add ${name} --profile ${base.profile}', or 'svc model ls --refresh' if it is on disk.`, { field: "adapters" });
  }
  const adapterRows = adapterRowsOf(rows);
  if (adapterRows.length === 0) throw badRequest(`--adapter ${name} is a model, not a LoRA adapter: run it as a service of its own with 'svc run ${rows[0].image} ${name}'.`, { field: "adapters" });
  if (adapterRows[0].image !== base.image) throw badRequest(`--adapter ${name} is a ${adapterRows[0].image} adapter; ${base.repo} is ${base.image}.`, { field: "adapters" });
  return adapterRows[0];
}

/**
 * GPU memory the adapters take beside the model, all served at once: each module's A and B
 * (in + out) × rank × layers in 16 bits, as vLLM and SGLang hold them; without module shapes, the
 * adapter file's size. Adapters not in the registry count nothing here (chooseAdapters refuses them).
 */
export async function adapterMemoryBytes(names: readonly string[], models: (repo: string) => Promise<Model[]>): Promise<number> {
  let total = 0;
  for (const name of new Set(names)) {
    const row = adapterRowsOf(await models(name))[0];
    const modules = row?.adapter?.modules;
    if (modules?.length) total += modules.reduce((sum, module) => sum + (module.inFeatures + module.outFeatures) * module.rank * module.layers * 2, 0);
    else total += row?.facts?.weightBytes ?? row?.sizeBytes ?? 0;
  }
  return total;
}

/** svc's runtime (llama.cpp) applies GGUF adapters; vLLM and SGLang PEFT ones. */
function checkKind(model: Model, server: InferenceServer): void {
  const kind = model.adapter!.kind;
  if (server === "svc" && kind !== "gguf") throw badRequest(`--adapter ${model.repo} is a PEFT adapter: ${CPU_PEFT}.`, { field: "adapters" });
  if (server !== "svc" && kind !== "peft") {
    throw badRequest(`--adapter ${model.repo} is a GGUF adapter, which svc's CPU runtime (llama.cpp) applies; ${GPU_SERVERS[server].label} applies PEFT adapters (adapter_config.json + adapter_model.safetensors).`, { field: "adapters" });
  }
}

/** The highest rank among `adapters` (unknown ranks count as none). */
const highestRank = (adapters: readonly AdapterLaunch[]) => Math.max(0, ...adapters.map((adapter) => adapter.rank ?? 0));

/** The value engine arguments give an option, in any spelling the engine reads (`--opt V`, `--opt=V`). */
export function givenValue(server: "vllm" | "sglang", args: readonly string[], option: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (!givenOptions(server, [args[i]]).has(option)) continue;
    return args[i].includes("=") ? args[i].slice(args[i].indexOf("=") + 1) : args[i + 1];
  }
  return undefined;
}

/** A rank above what the engine can take, or above the `--max-lora-rank` the engine arguments start it with, is refused. */
function checkRank(adapters: readonly ServedAdapter[], server: InferenceServer, engineArgs: readonly string[]): void {
  if (server === "svc") return;
  const rank = highestRank(adapters);
  const max = MAX_RANK[server];
  const over = adapters.find((adapter) => (adapter.rank ?? 0) === rank);
  if (max !== undefined && rank > max) throw badRequest(`--adapter ${over!.name} has rank ${rank}; ${GPU_SERVERS[server].label} serves LoRA ranks up to ${max}.`, { field: "adapters" });
  const given = givenValue(server, engineArgs, "--max-lora-rank");
  if (given !== undefined && Number(given) < rank) {
    throw badRequest(`--adapter ${over!.name} has rank ${rank}, above the --max-lora-rank ${given} the engine arguments give: raise it to ${rank} or more, or leave it out (svc sets it from the adapters).`, { field: "adapters" });
  }
  for (const option of server === "vllm" ? ["--lora-modules"] : ["--lora-paths"]) {
    if (givenOptions(server, engineArgs).has(option)) throw badRequest(`${option}: svc sets it from --adapter; name the adapters with --adapter instead.`, { field: "engineArgs" });
  }
}

/**
 * The engine's arguments that serve `adapters` (before the user's engine arguments, which may add to
 * them). `enabled`: a GPU engine keeps LoRA enabled, with at least that rank, also without adapters
 * (a service started with adapters can load others after a restart too).
 */
export function adapterArgs(server: InferenceServer, adapters: readonly AdapterLaunch[], engineArgs: readonly string[], enabled?: { rank: number }): string[] {
  if (adapters.length === 0 && (server === "svc" || !enabled)) return [];
  const pairs = adapters.map((adapter) => `${adapter.name}=${adapter.path}`);
  if (server === "svc") return pairs.flatMap((pair) => ["--lora", pair]);
  const given = givenOptions(server, engineArgs);
  const args = given.has("--enable-lora") ? [] : ["--enable-lora"];
  if (pairs.length) args.push(server === "vllm" ? "--lora-modules" : "--lora-paths", ...pairs);
  const rank = Math.max(highestRank(adapters), enabled?.rank ?? 0);
  if (!given.has("--max-lora-rank") && rank > 0) args.push("--max-lora-rank", String(server === "vllm" ? VLLM_RANKS.find((each) => each >= rank)! : rank));
  if (server === "vllm" && !given.has("--max-loras")) args.push("--max-loras", String(Math.max(1, adapters.length)));
  return args;
}

/** The options adapterArgs writes (each with its values: up to the next option). */
const ADAPTER_OPTIONS = ["--lora", "--enable-lora", "--lora-modules", "--lora-paths", "--max-lora-rank", "--max-loras"];

/** `args` (svc's own part of a launch's arguments, before the user's) without what adapterArgs wrote. */
export function withoutAdapterArgs(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!ADAPTER_OPTIONS.includes(args[i])) {
      kept.push(args[i]);
      continue;
    }
    while (i + 1 < args.length && !args[i + 1].startsWith("--")) i++;
  }
  return kept;
}

/**
 * What a container needs to see of the adapters, read-only at the same paths: with any adapter, the
 * folder that holds the model's snapshot folder (the profile's models, so that adapters of the same
 * folder can be added while it runs), and each adapter's snapshot folder that lies elsewhere.
 */
export function adapterMounts(adapters: readonly ServedAdapter[], base: Model, others: readonly Mount[]): Mount[] {
  if (adapters.length === 0) return [];
  const models = dirname(modelMount(base.modelDir));
  // Never a system folder or the root (a model folder kept at the top of the filesystem): then each adapter's own folder alone.
  const wide = models === "/" || SYSTEM_FOLDERS.some((system) => within(models, system));
  const mounts: Mount[] = wide || others.some((mount) => within(models, mount.target)) ? [] : [{ source: models, target: models }];
  for (const adapter of adapters) {
    const folder = modelMount(adapter.model.modelDir);
    if (seenIn(folder, [...others, ...mounts], base)) continue;
    mounts.push({ source: folder, target: folder });
  }
  return mounts;
}

const within = (path: string, folder: string) => path === folder || path.startsWith(folder === "/" ? "/" : `${folder}/`);

/** Whether a container with the model and `mounts` sees `folder`. */
export const seenIn = (folder: string, mounts: readonly Mount[], base: Pick<Model, "modelDir">) => [modelMount(base.modelDir), ...mounts.map((mount) => mount.target)].some((seen) => within(folder, seen));
