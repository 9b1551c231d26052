import { createRuntimeApp, EngineState, MetricsRegistry, SerialQueue } from "@svc/runtime-common";
import { chatCompletionsRoute } from "./chat-completions";
import { completionsRoute } from "./completions";
import { generationMetrics } from "./generation";
import type { LlamaEngine } from "./llama-engine";
import { modelsRoute } from "./models";

export const TEXT_GENERATION_PATHS = ["/health", "/metrics", "/v1/models", "/v1/chat/completions", "/v1/completions"];

export interface TextGenerationAppOptions {
  modelName: string;
  apiKey?: string;
  maxInputLength?: number;
  maxTotalTokens?: number;
}

/** The text-generation HTTP app; call `attachEngine` once the model has loaded. */
export function createTextGenerationApp(options: TextGenerationAppOptions) {
  const state = new EngineState();
  const queue = new SerialQueue();
  const registry = new MetricsRegistry();
  let engine: LlamaEngine | undefined;
  const currentEngine = () => {
    if (!engine) throw new Error("engine used before it was loaded");
    return engine;
  };
  const deps = {
    engine: currentEngine,
    queue,
    metrics: generationMetrics(registry),
    modelName: options.modelName,
    limits: () => ({ maxInputLength: options.maxInputLength, maxTotalTokens: options.maxTotalTokens, contextSize: currentEngine().contextSize }),
  };
  const app = createRuntimeApp({ apiKey: options.apiKey, engine: state, queue, metrics: registry, isInferencePath: (path) => path.startsWith("/v1/") })
    .use(modelsRoute(options.modelName, () => currentEngine().contextSize, Math.floor(Date.now() / 1000)))
    .use(chatCompletionsRoute(deps))
    .use(completionsRoute(deps));
  return {
    app,
    state,
    queue,
    registry,
    attachEngine(loaded: LlamaEngine) {
      engine = loaded;
      state.markReady();
    },
  };
}
