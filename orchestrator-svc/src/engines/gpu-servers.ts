import type { GpuEngine, InferenceServer, Placement } from "@svc/contracts";
import { ENGINE_OPTIONS } from "./options/check";

/** What svc needs to know of each GPU text-generation server: how it is started and which of its options svc sets. */
export interface GpuServer {
  engine: GpuEngine;
  label: string;
  /** The Python module that serves the OpenAI API. */
  module: string;
  /** Its option naming the model folder (svc gives it). */
  modelOption: string;
  /** The options of its parallel sizes, as svc writes them. */
  tensorParallel: string;
  pipelineParallel: string;
  /** Its context-length option (svc's --max-total-tokens, or the placement's maxModelLen). */
  maxLength: string;
  /** Its option that turns CUDA graphs off (svc's --disable-custom-kernels). */
  eager: string;
  /** Options only svc may give: where it listens, what it serves, its key and, across nodes, the group's rendezvous. */
  reserved: string[];
}

export const GPU_SERVERS: Record<GpuEngine, GpuServer> = {
  vllm: {
    engine: "vllm",
    label: "vLLM",
    module: "vllm.entrypoints.openai.api_server",
    modelOption: "--model",
    tensorParallel: "--tensor-parallel-size",
    pipelineParallel: "--pipeline-parallel-size",
    maxLength: "--max-model-len",
    eager: "--enforce-eager",
    reserved: ["--model", "--host", "--port", "--uds", "--api-key", "--served-model-name", "--distributed-executor-backend"],
  },
  sglang: {
    engine: "sglang",
    label: "SGLang",
    module: "sglang.launch_server",
    modelOption: "--model-path",
    tensorParallel: "--tp-size",
    pipelineParallel: "--pp-size",
    maxLength: "--context-length",
    eager: "--disable-cuda-graph",
    reserved: ["--model-path", "--host", "--port", "--api-key", "--served-model-name", "--nnodes", "--node-rank", "--dist-init-addr"],
  },
};

/** The pinned version of each engine, as its option list names it. */
export const pinnedVersion = (engine: GpuEngine) => ENGINE_OPTIONS[engine].version;

/**
 * SGLang reads its key only from `--api-key`, which `ps` would show: svc starts it through this
 * Python line instead, which adds `--api-key` from SGLANG_API_KEY to the arguments inside the
 * process (its command line stays without it) and runs the server module as `python3 -m` would.
 */
export const SGLANG_WITH_KEY =
  'import os, runpy, sys; key = os.environ.pop("SGLANG_API_KEY", ""); sys.argv[1:] += ["--api-key", key] if key else []; runpy.run_module("sglang.launch_server", run_name="__main__", alter_sys=True)';

/** `python3 …` words that start the server (unquoted): SGLang with a key goes through SGLANG_WITH_KEY. */
export function serverProgram(engine: GpuEngine, withKey: boolean): string[] {
  if (engine === "sglang" && withKey) return ["python3", "-c", SGLANG_WITH_KEY];
  return ["python3", "-m", GPU_SERVERS[engine].module];
}

/**
 * What the server's environment needs beyond its key: vLLM started with LoRA adapters may load and
 * unload them while it runs (`/v1/load_lora_adapter`, `svc adapter add|rm`) only with
 * VLLM_ALLOW_RUNTIME_LORA_UPDATING set; SGLang and svc's runtime need nothing.
 */
export function serverEnvironment(server: InferenceServer, args: readonly string[]): Record<string, string> {
  return server === "vllm" && args.includes("--enable-lora") ? { VLLM_ALLOW_RUNTIME_LORA_UPDATING: "True" } : {};
}

/** The long names of the options in `args` (as the engine reads them: aliases, `=value`, vLLM's `_`). */
export function givenOptions(engine: GpuEngine, args: readonly string[]): Set<string> {
  const list = ENGINE_OPTIONS[engine];
  const names = new Set<string>();
  for (const arg of args) {
    if (!arg.startsWith("-")) continue;
    const raw = arg.split("=")[0];
    const name = engine === "vllm" && raw.startsWith("--") ? `--${raw.slice(2).replaceAll("_", "-")}` : raw;
    const option = list.options.find((each) => each.name === name || each.aliases.includes(name)) ?? list.options.filter((each) => each.name.startsWith(name) && name.length > 3).at(0);
    names.add(option?.name ?? name);
  }
  return names;
}

/** The long name `option` stands for in `engine`'s option list (an alias such as `-tp` or `--tp` → its long name). */
export function canonicalOption(engine: GpuEngine, option: string): string {
  return ENGINE_OPTIONS[engine].options.find((each) => each.name === option || each.aliases.includes(option))?.name ?? option;
}

/** Whether `args` give `option` (in any spelling the engine reads). */
export const givesOption = (engine: GpuEngine, args: readonly string[], option: string): boolean => givenOptions(engine, args).has(canonicalOption(engine, option));

/** The parallel sizes svc adds for a placement, leaving out those the user's engine arguments give (theirs win). */
export function placementArgs(engine: GpuEngine, placement: Placement | undefined, userArgs: readonly string[]): string[] {
  if (!placement) return [];
  const server = GPU_SERVERS[engine];
  const args: string[] = [];
  if (placement.tensorParallel > 1 && !givesOption(engine, userArgs, server.tensorParallel)) args.push(server.tensorParallel, String(placement.tensorParallel));
  if (placement.pipelineParallel > 1 && !givesOption(engine, userArgs, server.pipelineParallel)) args.push(server.pipelineParallel, String(placement.pipelineParallel));
  return args;
}
