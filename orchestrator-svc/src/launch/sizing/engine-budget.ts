/**
 * How much of each GPU an engine gives the model, and what it keeps for itself (issue 29). The
 * figures are the engines' own defaults; `docs/gpu-sizing.md` says where each comes from.
 */

export type SizingEngine = "vllm" | "sglang";

export const GiB = 2 ** 30;

/** vLLM's `--gpu-memory-utilization` default: the share of each GPU its weights, KV cache and activations may take. */
export const VLLM_GPU_MEMORY_UTILIZATION = 0.9;

/**
 * What vLLM takes on each GPU inside that share besides weights and KV cache: the activation peak of
 * its start-up profiling run and non-torch memory (CUDA context, NCCL and cuBLAS buffers). vLLM's own
 * memory-profiling logs show 0.4–3 GiB (vllm-project/vllm#10511: 1.26 GiB activations + 1.79 GiB
 * non-torch for Llama-3-8B on an H100; #12126 and #14447: 0.2–0.6 GiB); 2 GiB is their middle. CUDA
 * graphs are captured after the profiling, in the 10% left over.
 */
export const VLLM_OVERHEAD_BYTES = 2 * GiB;

/**
 * SGLang's `--mem-fraction-static` default (python/sglang/srt/server_args.py): the static pool (weights
 * + KV cache) is the GPU less a reserve for activations and CUDA graphs that grows with the GPU
 * (chunked-prefill size, CUDA-graph batch sizes) and with tensor × pipeline parallel size.
 */
export function sglangMemFractionStatic(gpuBytes: number, parallel: number): number {
  const mib = gpuBytes / 2 ** 20;
  const reservedGiB = mib < 35 * 1024 ? 2.8 + parallel / 10 : mib < 90 * 1024 ? 9.5 + parallel / 2 : mib < 160 * 1024 ? 12 + parallel / 2 : 32;
  return Math.round(((mib - reservedGiB * 1024) / mib) * 1000) / 1000;
}

export interface EngineBudget {
  engine: SizingEngine;
  /** The share of a GPU of `gpuBytes` that holds weights + KV cache + overheadBytes, with `parallel` = tensor × pipeline GPUs. */
  utilisation(gpuBytes: number, parallel: number): number;
  /** Per GPU, inside that share. */
  overheadBytes: number;
  /** How the engine's option reads, for messages: `--gpu-memory-utilization 0.9`. */
  describe(gpuBytes: number, parallel: number): string;
}

/** The budget of `engine`, with the user's own utilisation option where given. */
export function engineBudget(engine: SizingEngine, givenUtilisation?: number): EngineBudget {
  if (engine === "sglang") {
    const utilisation = (gpuBytes: number, parallel: number) => givenUtilisation ?? sglangMemFractionStatic(gpuBytes, parallel);
    return { engine, utilisation, overheadBytes: 0, describe: (gpuBytes, parallel) => `--mem-fraction-static ${utilisation(gpuBytes, parallel)}` };
  }
  const utilisation = () => givenUtilisation ?? VLLM_GPU_MEMORY_UTILIZATION;
  return { engine, utilisation, overheadBytes: VLLM_OVERHEAD_BYTES, describe: () => `--gpu-memory-utilization ${utilisation()}` };
}
