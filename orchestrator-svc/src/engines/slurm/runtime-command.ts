import type { SlurmRuntime, Task } from "@svc/contracts";
import { remotePathWord, shellQuote } from "@svc/ssh";
import { serverOf } from "../api-key";
import { modelMount } from "../model-folder";

/** What a slurm profile's jobs start their server with when the profile does not say (see SlurmProfile.runtime). */
export const DEFAULT_SLURM_RUNTIME: SlurmRuntime = "bare";

export interface RuntimeTarget {
  runtime: SlurmRuntime;
  /** The profile's home and cache on the cluster (absolute or ~/…). */
  home: string;
  cache: string;
}

const trimSlash = (path: string) => path.replace(/\/+$/, "");
const isVllm = (image: string) => serverOf(image) === "vllm";

/** `vllm/vllm-openai:latest` → `vllm-openai.sif`; `svc-text-generation:latest` → `svc-text-generation.sif`. */
export function sifName(image: string): string {
  const last = image.split("/").pop()!;
  return `${last.replace(/[:@].*$/, "")}.sif`;
}

/**
 * The shell words (already quoted) that start an inference server in a Slurm job, before its
 * --model/--host/--port arguments, per the profile's runtime kind. `bare`: the project's runtime tree under <home>/runtime run by Bun (vLLM: its
 * Python entry point), for clusters without a container engine. `apptainer`: `apptainer run` of
 * <cache>/images/<image>.sif, the model folder bound read-only (and `--nv` for GPUs).
 */
export function runtimeCommand(image: string, task: Task, modelDir: string, gpus: number, target: RuntimeTarget): string[] {
  if (target.runtime === "apptainer") {
    const mount = modelMount(modelDir);
    return [
      "apptainer",
      "run",
      ...(gpus > 0 ? ["--nv"] : []),
      "--bind",
      shellQuote(`${mount}:${mount}:ro`),
      remotePathWord(`${trimSlash(target.cache)}/images/${sifName(image)}`),
    ];
  }
  if (isVllm(image)) return ["python3", "-m", "vllm.entrypoints.openai.api_server"];
  return ["bun", remotePathWord(`${trimSlash(target.home)}/runtime/runtimes/${task}/src/main.ts`)];
}
