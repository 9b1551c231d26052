import type { InferenceServer, Placement, RunRequest } from "@svc/contracts";
import { engineOption } from "./sizing/given-placement";

/**
 * The inference server's arguments after --model/--host/--port. The project's CPU runtimes take the svc
 * option names as they are; vLLM's OpenAI server gets the mapped ones. Engine args come last, each
 * one argument. The API key is not among them: engines hand it over apart (see engines/api-key.ts).
 * A GPU launch's placement gives vLLM its tensor and pipeline parallel sizes and a lowered
 * --max-model-len, unless the engine arguments give them.
 */
export function serverArgs(kind: InferenceServer, request: RunRequest, modelName: string, placement?: Placement, modelContext?: number): { args: string[]; warnings: string[] } {
  const args: string[] = [];
  const warnings: string[] = [];
  const options = request.textGeneration ?? {};
  if (kind === "vllm") {
    args.push("--served-model-name", modelName);
    // vLLM bounds prompt + output with --max-model-len and rejects longer prompts itself.
    const maxLen = options.maxTotalTokens ?? options.maxInputLength;
    const engineArgs = request.engineArgs ?? [];
    const given = (...names: string[]) => engineOption(engineArgs, names) !== undefined;
    if (maxLen !== undefined) args.push("--max-model-len", String(maxLen));
    else if (placement?.maxModelLen && placement.maxModelLen !== modelContext && !given("--max-model-len")) args.push("--max-model-len", String(placement.maxModelLen));
    if (options.maxInputLength !== undefined && options.maxTotalTokens !== undefined) {
      warnings.push("vLLM has no separate input limit: prompts are bounded by --max-total-tokens (--max-model-len).");
    }
    if (placement) {
      if (placement.tensorParallel > 1 && !given("--tensor-parallel-size", "-tp")) args.push("--tensor-parallel-size", String(placement.tensorParallel));
      if (placement.pipelineParallel > 1 && !given("--pipeline-parallel-size", "-pp")) args.push("--pipeline-parallel-size", String(placement.pipelineParallel));
    } else if (options.sharded?.toLowerCase() === "true") args.push("--tensor-parallel-size", String(request.job?.gres ?? 1));
    if (options.disableCustomKernels) args.push("--enforce-eager");
  } else {
    if (options.maxInputLength !== undefined) args.push("--max-input-length", String(options.maxInputLength));
    if (options.maxTotalTokens !== undefined) args.push("--max-total-tokens", String(options.maxTotalTokens));
  }
  args.push(...(request.engineArgs ?? []));
  return { args, warnings };
}
