import type { ModelFacts } from "@svc/contracts";
import { visionConfigFacts } from "./vision";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** Keys of config.json for each fact, in order of preference (GPT-2-style names after the usual ones). */
const KEYS = {
  layers: ["num_hidden_layers", "n_layer"],
  hiddenSize: ["hidden_size", "n_embd"],
  intermediateSize: ["intermediate_size", "n_inner"],
  attentionHeads: ["num_attention_heads", "n_head"],
  kvHeads: ["num_key_value_heads"],
  headDim: ["head_dim"],
  vocabSize: ["vocab_size"],
  contextLength: ["max_position_embeddings", "n_positions"],
  slidingWindow: ["sliding_window"],
  experts: ["num_local_experts", "n_routed_experts", "num_experts"],
  expertsPerToken: ["num_experts_per_tok"],
  kvLoraRank: ["kv_lora_rank"],
  qkRopeHeadDim: ["qk_rope_head_dim"],
} as const satisfies Partial<Record<keyof ModelFacts, readonly string[]>>;

/**
 * How many layers attend only within the sliding window: `layer_types` where the config lists them;
 * Gemma 2 alternates (every other layer); Gemma 3's `sliding_window_pattern` N makes N - 1 of each
 * N slide; Qwen2's `max_window_layers` first layers attend fully; else (Mistral 7B v0.1) every layer,
 * as transformers runs such a config.
 */
function slidingLayers(raw: (key: string) => unknown, layers: number): number {
  const types = raw("layer_types");
  if (Array.isArray(types)) return types.filter((type) => type === "sliding_attention").length;
  if (raw("model_type") === "gemma2") return Math.ceil(layers / 2);
  const pattern = count(raw("sliding_window_pattern"));
  if (pattern && pattern > 1) return layers - Math.floor(layers / pattern);
  const full = count(raw("max_window_layers"));
  if (raw("use_sliding_window") === true && full !== undefined) return Math.max(0, layers - full);
  return layers;
}

/** Drops the keys whose value is undefined, so that absent facts are absent (not `undefined`) in JSON and in spreads. */
export function defined<T extends object>(facts: T): T {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as T;
}

/**
 * What a config.json says about a model's shape. A multimodal config (Llava, Llama 4, Gemma 3,
 * Mistral 3…) keeps the language model's fields under `text_config`: those are read first (the KV
 * cache is the language model's), the top level where `text_config` lacks them; a `vision_config`
 * marks a vision tower (its own sizes are not the model's). Nothing is inferred beyond the contract's two rules: key/value heads equal the attention
 * heads when the config names none, and the head dimension is hidden size ÷ heads when it has none.
 * Throws when the text is not a JSON object.
 */
export function configFacts(configText: string): ModelFacts {
  const config: unknown = JSON.parse(configText);
  if (!isObject(config)) throw new Error("config.json is not a JSON object");
  const inner = isObject(config.text_config) ? config.text_config : {};
  const raw = (key: string) => (inner[key] ?? config[key]) as unknown;
  const first = (keys: readonly string[]) => keys.map((key) => count(raw(key))).find((value) => value !== undefined);

  const facts: ModelFacts = {};
  for (const [fact, keys] of Object.entries(KEYS)) (facts as Record<string, number | undefined>)[fact] = first(keys);
  // Qwen2-style configs name a window but switch it off.
  if (raw("use_sliding_window") === false) facts.slidingWindow = undefined;
  if (facts.slidingWindow !== undefined && facts.layers !== undefined) facts.slidingWindowLayers = slidingLayers(raw, facts.layers);
  if (facts.kvHeads === undefined) facts.kvHeads = facts.attentionHeads;
  if (facts.headDim === undefined && facts.hiddenSize && facts.attentionHeads && facts.hiddenSize % facts.attentionHeads === 0) {
    facts.headDim = facts.hiddenSize / facts.attentionHeads;
  }
  const architectures = Array.isArray(config.architectures) ? config.architectures : [];
  facts.architecture = text(architectures[0]);
  facts.modelType = text(config.model_type) ?? text(inner.model_type);
  facts.dtype = text(raw("torch_dtype")) ?? text(raw("dtype"));
  const quantization = isObject(config.quantization_config) ? config.quantization_config : isObject(inner.quantization_config) ? inner.quantization_config : undefined;
  facts.quantization = text(quantization?.quant_method);
  facts.vision = visionConfigFacts(config);
  return defined(facts);
}
