import type { VisionFacts } from "@svc/contracts";
import type { SafetensorsEntry } from "./safetensors";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The tensors of a vision tower and its projector into the language model, as the families'
 * checkpoints name them: Qwen2-VL/2.5-VL `visual.`, Llava/Gemma 3/Mistral 3 `vision_tower.` and
 * `multi_modal_projector.`, Llama 4/Mllama/Idefics `vision_model.`, Phi-3-vision `vision_embed_tokens.`,
 * Gemma 3n `embed_vision.`; newer transformers save them under `model.`.
 */
const VISION_TENSOR = /^(model\.)?(visual|vision_tower|vision_model|vision_encoder|vision_embed_tokens|embed_vision|multi_modal_projector|mm_projector)\./;

export const isVisionTensor = (tensor: Pick<SafetensorsEntry, "name">) => VISION_TENSOR.test(tensor.name);

/** What config.json says of a vision tower: present when it has a `vision_config` object. */
export function visionConfigFacts(config: Json): VisionFacts | undefined {
  if (!isObject(config.vision_config)) return undefined;
  const modelType = config.vision_config.model_type;
  return typeof modelType === "string" && modelType !== "" ? { modelType } : {};
}
