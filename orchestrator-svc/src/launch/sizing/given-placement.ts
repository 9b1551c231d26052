import type { RunRequest } from "@svc/contracts";
import type { GivenPlacement } from "./user-placement";

/** The value of an engine option in `args` (`--name value`, `--name=value`, or a short alias), the last one given winning. */
export function engineOption(args: readonly string[], names: readonly string[]): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (names.includes(name)) value = inline ?? args[i + 1];
  });
  return value;
}

const number = (text: string | undefined) => (text !== undefined && Number.isFinite(Number(text)) ? Number(text) : undefined);

/** Each engine's spelling of the options sizing reads (vLLM's and SGLang's argparse names and aliases). */
const OPTIONS = {
  tensorParallel: ["--tensor-parallel-size", "-tp", "--tp-size", "--tp"],
  pipelineParallel: ["--pipeline-parallel-size", "-pp", "--pp-size", "--pp"],
  maxModelLen: ["--max-model-len", "--context-length"],
  utilisation: ["--gpu-memory-utilization", "--mem-fraction-static"],
  kvCacheDtype: ["--kv-cache-dtype"],
} as const;

/** What a run request fixes of its placement: job options, svc's text-generation options and the engine's own arguments. */
export function givenPlacement(request: RunRequest): GivenPlacement {
  const args = request.engineArgs ?? [];
  const text = request.textGeneration ?? {};
  const kvDtype = engineOption(args, OPTIONS.kvCacheDtype);
  const given: GivenPlacement = {
    gres: request.job?.gres,
    nodes: request.job?.nodes,
    partition: request.job?.partition,
    tensorParallel: number(engineOption(args, OPTIONS.tensorParallel)),
    pipelineParallel: number(engineOption(args, OPTIONS.pipelineParallel)),
    maxModelLen: number(engineOption(args, OPTIONS.maxModelLen)) ?? text.maxTotalTokens ?? text.maxInputLength,
    utilisation: number(engineOption(args, OPTIONS.utilisation)),
    kvCacheDtypeBytes: kvDtype?.startsWith("fp8") ? 1 : undefined,
    unsharded: text.sharded?.toLowerCase() === "false",
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== false)) as GivenPlacement;
}
