import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { RuntimeArgs } from "@svc/runtime-common";

/** How the llama.cpp engine is set up: what the engine options (`--ctx-size`, …) turn into. */
export interface EngineSettings {
  modelFile: string;
  /** Tokens of context per sequence; 0: what the model was trained with. Capped at that. */
  contextSize: number;
  threads: number;
  batchSize?: number;
  /** Sequences generating at once (--parallel). */
  parallel: number;
  /** Sampling seed of requests that give none. */
  seed?: number;
  flashAttention: boolean | "auto";
  useMlock: boolean;
  useMmap: boolean | "auto";
}

const DEFAULT_CONTEXT = 4096;
const SMALL_MODEL_BYTES = 256 * 1024 * 1024;
const FLASH_ATTENTION = { on: true, off: false, auto: "auto" } as const;

/** On few cores tiny models run far faster on one thread (less synchronisation than work). */
function defaultThreads(modelFile: string): number {
  return statSync(modelFile).size < SMALL_MODEL_BYTES ? 1 : Math.max(1, availableParallelism());
}

/** The settings for `modelFile` from the runtime's arguments, and a notice for each option that does nothing here. */
export function engineSettings(args: RuntimeArgs, modelFile: string): { settings: EngineSettings; notices: string[] } {
  const engine = args.engine;
  const number = (name: string) => (typeof engine[name] === "number" ? (engine[name] as number) : undefined);
  const notices: string[] = [];
  if (engine["--n-gpu-layers"] !== undefined) notices.push(`--n-gpu-layers ${engine["--n-gpu-layers"]} is ignored: this CPU runtime keeps every layer on the CPU.`);
  const ctxSize = number("--ctx-size");
  if (ctxSize !== undefined && ctxSize > 0 && args.maxTotalTokens !== undefined && args.maxTotalTokens > ctxSize) {
    notices.push(`--max-total-tokens ${args.maxTotalTokens} is more than --ctx-size ${ctxSize}: requests are held to ${ctxSize} tokens.`);
  }
  return {
    settings: {
      modelFile,
      contextSize: ctxSize ?? args.maxTotalTokens ?? DEFAULT_CONTEXT,
      threads: args.threads ?? defaultThreads(modelFile),
      batchSize: number("--batch-size"),
      parallel: number("--parallel") ?? 1,
      seed: number("--seed"),
      flashAttention: FLASH_ATTENTION[(engine["--flash-attn"] as keyof typeof FLASH_ATTENTION) ?? "auto"],
      useMlock: engine["--mlock"] === true,
      useMmap: engine["--no-mmap"] === true ? false : "auto",
    },
    notices,
  };
}
