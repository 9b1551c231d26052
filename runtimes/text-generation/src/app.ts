import { REQUEST_ENDS_PATH } from "@svc/contracts/request-ends";
import { createRuntimeApp, directJsonRoute, EngineState, inferenceGate, MetricsRegistry, modelsRoute, RequestEnds, requestEndsRoute, RequestQueue, type DirectRoutes } from "@svc/runtime-common";
import { answerChat, chatCompletionsRoute } from "./chat-completions";
import { completionsRoute } from "./completions";
import { embeddingsRoute } from "./embeddings";
import { generationMetrics } from "./generation";
import { LORA_PATHS, loraRoutes } from "./lora-routes";
import { ChatCompletionRequest, integerStringsToNumbers } from "./schemas";
import type { LlamaEngine } from "./llama-engine";

export const TEXT_GENERATION_PATHS = ["/health", "/metrics", "/v1/models", "/v1/chat/completions", "/v1/completions", "/v1/embeddings", ...LORA_PATHS, REQUEST_ENDS_PATH];

export interface TextGenerationAppOptions {
  modelName: string;
  apiKey?: string;
  maxInputLength?: number;
  maxTotalTokens?: number;
  /** Requests served at once (--parallel); the engine must hold as many sequences. */
  parallel?: number;
}

/** The text-generation HTTP app; call `attachEngine` once the model has loaded. */
export function createTextGenerationApp(options: TextGenerationAppOptions) {
  const state = new EngineState();
  const queue = new RequestQueue(options.parallel ?? 1);
  const registry = new MetricsRegistry();
  let engine: LlamaEngine | undefined;
  const currentEngine = () => {
    if (!engine) throw new Error("engine used before it was loaded");
    return engine;
  };
  const requestEnds = new RequestEnds();
  const deps = {
    engine: currentEngine,
    requestEnds,
    queue,
    metrics: generationMetrics(registry),
    modelName: options.modelName,
    limits: () => ({ maxInputLength: options.maxInputLength, maxTotalTokens: options.maxTotalTokens, contextSize: currentEngine().contextSize }),
  };
  const app = createRuntimeApp({ apiKey: options.apiKey, engine: state, queue, metrics: registry, isInferencePath: (path) => path.startsWith("/v1/") })
    .use(modelsRoute(options.modelName, Math.floor(Date.now() / 1000), () => ({ max_model_len: currentEngine().contextSize }), () => engine?.adapters ?? []))
    .use(chatCompletionsRoute(deps))
    .use(completionsRoute(deps))
    .use(embeddingsRoute({ ...deps, maxInputLength: options.maxInputLength }))
    .use(loraRoutes(currentEngine))
    .use(requestEndsRoute(requestEnds, options.apiKey));
  // A chat's first token is what its client waits on: Bun answers the route itself (direct-route.ts).
  const direct: DirectRoutes = {
    "/v1/chat/completions": { POST: directJsonRoute({ schema: ChatCompletionRequest, transform: integerStringsToNumbers, handle: answerChat(deps), gate: inferenceGate({ apiKey: options.apiKey, engine: state }), app }) },
  };
  return {
    app,
    direct,
    state,
    queue,
    registry,
    attachEngine(loaded: LlamaEngine) {
      if (loaded.parallel !== queue.slots) throw new Error(`the engine holds ${loaded.parallel} sequences, the queue ${queue.slots} slots`);
      engine = loaded;
      state.markReady();
    },
  };
}
