import { Counter, Histogram, type MetricsRegistry, type RequestQueue } from "@svc/runtime-common";
import type { Token } from "node-llama-cpp";
import type { GenerationOptions, GenerationResult, LlamaEngine } from "./llama-engine";
import type { SamplingRequest } from "./schemas";

export interface GenerationDeps {
  engine: () => LlamaEngine;
  queue: RequestQueue;
  metrics: GenerationMetrics;
}

export interface GenerationMetrics {
  promptTokens: Counter;
  generatedTokens: Counter;
  generationSeconds: Histogram;
}

export function generationMetrics(registry: MetricsRegistry): GenerationMetrics {
  return {
    promptTokens: registry.add(new Counter("svc_prompt_tokens_total", "Prompt tokens processed.")),
    generatedTokens: registry.add(new Counter("svc_generated_tokens_total", "Tokens generated.")),
    generationSeconds: registry.add(
      new Histogram("svc_generation_duration_seconds", "Time from a request's turn on the engine to its last token.", [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]),
    ),
  };
}

export function samplingOptions(request: SamplingRequest, maxTokens: number, signal?: AbortSignal): GenerationOptions {
  const stop = request.stop == null ? [] : typeof request.stop === "string" ? [request.stop] : request.stop;
  return {
    maxTokens,
    temperature: request.temperature ?? 1,
    topP: request.top_p ?? 1,
    seed: request.seed ?? undefined,
    stop,
    signal,
    ...(request.model ? { model: request.model } : {}),
  };
}

/** The `model` an answer names: the LoRA adapter the request asked for, else the base model's name. */
export function answeredModel(deps: { modelName: string; engine(): LlamaEngine }, requested: string | null | undefined): string {
  return requested && deps.engine().adapters.includes(requested) ? requested : deps.modelName;
}

/**
 * Generates once the engine is free (requests take turns in arrival order), passing each text piece
 * to `onPiece`, and records the token counts.
 */
export async function generate(
  deps: GenerationDeps,
  prompt: Token[],
  options: GenerationOptions,
  onPiece: (piece: string) => void = () => {},
): Promise<GenerationResult> {
  const release = await deps.queue.acquire();
  const started = performance.now();
  let generation: AsyncGenerator<string, GenerationResult> | undefined;
  try {
    generation = deps.engine().generate(prompt, options);
    let step = await generation.next();
    while (!step.done) {
      onPiece(step.value);
      step = await generation.next();
    }
    deps.metrics.promptTokens.inc({}, prompt.length);
    deps.metrics.generatedTokens.inc({}, step.value.completionTokens);
    return step.value;
  } finally {
    // Leaving early (onPiece threw) still ends the generation, which hands its sequence back.
    await generation?.return(undefined as never);
    deps.metrics.generationSeconds.observe((performance.now() - started) / 1000);
    release();
  }
}
