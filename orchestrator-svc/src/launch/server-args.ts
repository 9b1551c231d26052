import type { InferenceServer, ModelFacts, Placement, RunRequest } from "@svc/contracts";
import { GPU_SERVERS, givesOption, placementArgs } from "../engines/gpu-servers";
import { toolCallArgs } from "../engines/tool-parsers";

/**
 * The inference server's arguments after --model/--host/--port. The project's CPU runtimes take the svc
 * option names as they are; vLLM's and SGLang's OpenAI servers get the mapped ones, and from a GPU
 * launch's placement its tensor and pipeline parallel sizes and a lowered context length (unless the
 * engine args give them, in any spelling the engine reads), and the tool-call parser of the model's
 * family (engines/tool-parsers.ts); then the options that serve the run's adapters (launch/adapters.ts). Engine args come last, each one argument. The API key is not
 * among them: engines hand it over apart (see engines/api-key.ts).
 */
export function serverArgs(kind: InferenceServer, request: RunRequest, modelName: string, placement?: Placement, facts?: ModelFacts, adapterArgs: readonly string[] = []): { args: string[]; warnings: string[] } {
  const args: string[] = [];
  const warnings: string[] = [];
  const options = request.textGeneration ?? {};
  const engineArgs = request.engineArgs ?? [];
  if (kind !== "svc") {
    const server = GPU_SERVERS[kind];
    args.push("--served-model-name", modelName);
    // The GPU servers bound prompt + output with their context length and reject longer prompts themselves.
    const maxLen = options.maxTotalTokens ?? options.maxInputLength;
    if (maxLen !== undefined) args.push(server.maxLength, String(maxLen));
    else if (placement?.maxModelLen && placement.maxModelLen !== facts?.contextLength && !givesOption(kind, engineArgs, server.maxLength)) args.push(server.maxLength, String(placement.maxModelLen));
    if (options.maxInputLength !== undefined && options.maxTotalTokens !== undefined) {
      warnings.push(`${server.label} has no separate input limit: prompts are bounded by --max-total-tokens (${server.maxLength}).`);
    }
    if (placement) args.push(...placementArgs(kind, placement, engineArgs));
    else if (options.sharded?.toLowerCase() === "true") args.push(server.tensorParallel, String(request.job?.gres ?? 1));
    if (options.disableCustomKernels) args.push(server.eager);
    const tools = toolCallArgs(kind, facts, engineArgs);
    args.push(...tools.args);
    warnings.push(...tools.warnings);
  } else {
    if (options.maxInputLength !== undefined) args.push("--max-input-length", String(options.maxInputLength));
    if (options.maxTotalTokens !== undefined) args.push("--max-total-tokens", String(options.maxTotalTokens));
  }
  args.push(...adapterArgs, ...engineArgs);
  return { args, warnings };
}
