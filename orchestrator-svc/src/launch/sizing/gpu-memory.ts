import type { EngineBudget } from "./engine-budget";
import { stageLayers } from "./parallel";
import type { SizedModel } from "./sized-model";

/** Where a model runs: GPUs of `gpuBytes` each, tensor parallel `tp` within a node, pipeline parallel `pp` across nodes. */
export interface Split {
  gpuBytes: number;
  tp: number;
  pp: number;
}

/** The KV cache asked of an engine: `sequences` of `context` tokens each. */
export interface KvAsk {
  sequences: number;
  context: number;
}

/**
 * Weights on the busiest GPU, split by tensor parallel: with pipeline stages, the first stage's (the
 * largest stage's layers, one vocabulary matrix and a vision-language model's vision tower).
 */
export function weightBytesPerGpu(model: SizedModel, split: Split): number {
  if (split.pp === 1) return model.weightBytes / split.tp;
  const layerBytes = Math.max(0, model.weightBytes - 2 * model.vocabMatrixBytes - model.visionBytes) / model.layers;
  return (stageLayers(model.layers, split.pp) * layerBytes + model.vocabMatrixBytes + model.visionBytes) / split.tp;
}

/** KV tokens a layer holds for `ask`: sliding layers keep at most the window of each sequence. */
function layerTokens(model: SizedModel, ask: KvAsk, sliding: boolean): number {
  return ask.sequences * (sliding && model.slidingWindow ? Math.min(ask.context, model.slidingWindow) : ask.context);
}

/** The whole model's KV cache for `ask` (what the summary shows), with each head counted once. */
export function kvCacheBytes(model: SizedModel, ask: KvAsk): number {
  const full = model.layers - model.slidingLayers;
  return model.kvBytesPerLayerToken * (full * layerTokens(model, ask, false) + model.slidingLayers * layerTokens(model, ask, true));
}

/** KV cache on the busiest GPU: its stage's layers, its share of the key/value heads (replicated when tp > kv heads; a latent cache whole on each). */
export function kvBytesPerGpu(model: SizedModel, split: Split, ask: KvAsk): number {
  const layers = stageLayers(model.layers, split.pp);
  const share = model.latentCache ? 1 : model.kvHeads ? Math.max(1, model.kvHeads / split.tp) / model.kvHeads : 1 / split.tp;
  const slidingShare = model.slidingLayers / model.layers;
  const tokens = (1 - slidingShare) * layerTokens(model, ask, false) + slidingShare * layerTokens(model, ask, true);
  return model.kvBytesPerLayerToken * share * layers * tokens;
}

/** What one GPU of the split offers the model: its memory × the engine's utilisation. */
export function usableBytesPerGpu(budget: EngineBudget, split: Split): number {
  return Math.floor(split.gpuBytes * budget.utilisation(split.gpuBytes, split.tp * split.pp));
}

/** Bytes the busiest GPU is short of (≤ 0: it fits) for the weights, the engine's overhead and `ask`'s KV cache. */
export function shortfallPerGpu(model: SizedModel, budget: EngineBudget, split: Split, ask: KvAsk): number {
  return weightBytesPerGpu(model, split) + budget.overheadBytes + kvBytesPerGpu(model, split, ask) - usableBytesPerGpu(budget, split);
}

export const fits = (model: SizedModel, budget: EngineBudget, split: Split, ask: KvAsk) => shortfallPerGpu(model, budget, split, ask) <= 0;
