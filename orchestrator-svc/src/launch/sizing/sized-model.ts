import type { ModelFacts } from "@svc/contracts";

/** What sizing needs of a model, from its facts: weights as the engine holds them and the KV cache's shape. */
export interface SizedModel {
  /** Bytes of the weights on the GPUs (a float32 checkpoint is loaded in 16 bits, as vLLM and SGLang do by default), the LoRA adapters' included. */
  weightBytes: number;
  /** Of weightBytes, the LoRA adapters served beside the model. */
  adapterBytes: number;
  /** `bf16`, `fp8`, `awq`…: for the summary. */
  weightLabel: string;
  layers: number;
  attentionHeads?: number;
  kvHeads?: number;
  /** KV cache bytes of one token in one layer, all key/value heads together. */
  kvBytesPerLayerToken: number;
  /** Multi-head latent attention: every tensor-parallel GPU holds the whole latent cache of its layers. */
  latentCache: boolean;
  slidingWindow?: number;
  slidingLayers: number;
  contextLength?: number;
  /** One vocabulary matrix (embeddings or LM head): the first and last pipeline stages each hold one beside their layers. */
  vocabMatrixBytes: number;
  /** A vision-language model's vision tower and projector (part of weightBytes; 0 for a text model): the first pipeline stage holds it beside its layers. */
  visionBytes: number;
}

const FLOAT32 = /^(float32|f32|fp32)$/i;

function weightLabel(facts: ModelFacts): string {
  if (facts.quantization) return facts.quantization.toLowerCase();
  const dtype = (facts.dtype ?? "").toLowerCase();
  if (dtype.includes("bfloat16") || dtype === "bf16") return "bf16";
  if (dtype.includes("float16") || dtype === "f16" || dtype === "fp16") return "fp16";
  if (dtype.startsWith("f8") || dtype.includes("float8")) return "fp8";
  return dtype || "unknown-dtype";
}

/**
 * The model as sizing sees it, or why it cannot be sized: the weights' bytes and the layer count are
 * needed (the KV cache also needs the heads, or the latent rank); nothing is guessed.
 * `kvDtypeBytes`: 2 (the engines' `auto`, the model's 16-bit dtype), 1 with an fp8 KV cache.
 */
export function sizedModel(facts: ModelFacts | undefined, kvDtypeBytes: number): SizedModel | { unknown: string } {
  if (!facts?.weightBytes) return { unknown: "its files do not give the weights' size (no safetensors or GGUF headers were read: 'svc model ls --refresh' reads them)" };
  if (!facts.layers) return { unknown: "its config.json does not give the number of layers" };
  const latentCache = facts.kvLoraRank !== undefined && facts.kvLoraRank > 0;
  const headDim = facts.headDim ?? (facts.hiddenSize && facts.attentionHeads ? facts.hiddenSize / facts.attentionHeads : undefined);
  const kvHeads = facts.kvHeads ?? facts.attentionHeads;
  let kvBytesPerLayerToken: number;
  if (latentCache) kvBytesPerLayerToken = (facts.kvLoraRank! + (facts.qkRopeHeadDim ?? 0)) * kvDtypeBytes;
  else if (kvHeads && headDim) kvBytesPerLayerToken = 2 * kvHeads * headDim * kvDtypeBytes;
  else return { unknown: "its config.json does not give the attention heads and head size the KV cache is made of" };
  const float32 = FLOAT32.test(facts.dtype ?? "");
  const weightBytes = float32 && facts.parameters ? facts.parameters * 2 : facts.weightBytes;
  const bytesPerParameter = facts.parameters ? weightBytes / facts.parameters : 2;
  const visionBytes = float32 && facts.vision?.parameters ? facts.vision.parameters * 2 : (facts.vision?.weightBytes ?? 0);
  return {
    weightBytes,
    adapterBytes: 0,
    weightLabel: float32 ? "fp32→bf16" : weightLabel(facts),
    layers: facts.layers,
    attentionHeads: facts.attentionHeads,
    kvHeads,
    kvBytesPerLayerToken,
    latentCache,
    slidingWindow: facts.slidingWindow,
    slidingLayers: facts.slidingWindow ? Math.min(facts.slidingWindowLayers ?? 0, facts.layers) : 0,
    contextLength: facts.contextLength,
    vocabMatrixBytes: facts.vocabSize && facts.hiddenSize ? Math.round(facts.vocabSize * facts.hiddenSize * bytesPerParameter) : 0,
    visionBytes,
  };
}

/** The model with its LoRA adapters' bytes held beside its weights (each GPU holds its share, like the weights'). */
export const withAdapters = (model: SizedModel, adapterBytes: number): SizedModel => (adapterBytes > 0 ? { ...model, weightBytes: model.weightBytes + adapterBytes, adapterBytes } : model);
