import { Type, type Static } from "@sinclair/typebox";
import { literalUnion } from "./services";

/**
 * What a model's own files say about it (issue 29): read at `svc model ls --refresh` from
 * `config.json`, the safetensors headers (never the weights) or the GGUF metadata, and stored with
 * the registry row. Every field is optional: a field the files do not give stays absent (shown as
 * unknown), it is never guessed. Shared by model-svc (which reads them), orchestrator-svc (which
 * sizes launches from them), the CLI, the UI and the clients.
 */

const count = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

export const WEIGHT_FORMATS = ["safetensors", "gguf", "pytorch", "other"] as const;
/** The weight formats svc reads facts from. */
export const READ_WEIGHT_FORMATS = ["safetensors", "gguf"] as const;

/**
 * A vision-language model's vision tower (issue 43): present when config.json has a `vision_config`
 * (Qwen2-VL, Llava, Gemma 3, Mistral 3, Llama 4…). The model is still a text-generation model (it
 * answers in text); this marks that it also takes images, on vLLM and SGLang.
 */
export const VisionFacts = Type.Object(
  {
    modelType: Type.Optional(Type.String({ description: "`vision_config.model_type` (siglip_vision_model, clip_vision_model, pixtral…), where the config names one." })),
    parameters: count("The vision tower's and its projector's parameters, from the safetensors headers (tensors under visual., vision_tower., vision_model., multi_modal_projector.…)."),
    weightBytes: count("Their bytes, from the same headers; part of the model's weightBytes."),
  },
  { additionalProperties: false },
);
export type VisionFacts = Static<typeof VisionFacts>;

export const ModelFacts = Type.Object(
  {

    architecture: Type.Optional(Type.String({ description: "config.json `architectures[0]` (GGUF: `general.architecture`), e.g. LlamaForCausalLM." })),
    modelType: Type.Optional(Type.String({ description: "config.json `model_type`, e.g. llama, mixtral, deepseek_v3." })),
    parameters: count("Exact parameter count: the sum of the tensors' element counts in the safetensors headers (GGUF: its tensor infos)."),
    weightBytes: count("Exact bytes of the weights: the sum of the tensors' data sizes in the headers (`model.safetensors.index.json` total_size agrees)."),
    weightFormat: Type.Optional(literalUnion(READ_WEIGHT_FORMATS, { description: "The format of the weight files: safetensors or gguf (the engines that can load them differ)." })),
    dtype: Type.Optional(Type.String({ description: "The weights' dtype (the headers' most common one, else config.json `torch_dtype`/`dtype`), e.g. bfloat16, or a GGUF file type such as Q4_K_M." })),
    quantization: Type.Optional(Type.String({ description: "config.json `quantization_config.quant_method` (awq, gptq, fp8, bitsandbytes…), or the GGUF file type." })),
    layers: count("Transformer layers (`num_hidden_layers`)."),
    hiddenSize: count("`hidden_size`."),
    intermediateSize: count("`intermediate_size`."),
    attentionHeads: count("`num_attention_heads`."),
    kvHeads: count("Key/value heads (`num_key_value_heads`; equal to the attention heads when the config has none)."),
    headDim: count("`head_dim`, else hidden size ÷ attention heads."),
    vocabSize: count("`vocab_size`."),
    contextLength: count("Longest context: `max_position_embeddings` (GGUF: `<arch>.context_length`)."),
    slidingWindow: count("Sliding attention window in tokens, where the config has one."),
    slidingWindowLayers: count(
      "Layers that attend only within slidingWindow: all of them (Mistral 7B v0.1), every other one (Gemma 2, `layer_types`), 0 where the config turns it off (`use_sliding_window: false`). Absent: unknown, and the KV cache is sized as if no layer slid.",
    ),
    experts: count("Routed experts of a mixture-of-experts model (`num_local_experts`, `n_routed_experts`, `num_experts`)."),
    expertsPerToken: count("Experts each token uses (`num_experts_per_tok`)."),
    kvLoraRank: count("Multi-head latent attention (DeepSeek): `kv_lora_rank`; the KV cache then holds this plus `qk_rope_head_dim` per layer and token."),
    qkRopeHeadDim: count("Multi-head latent attention: `qk_rope_head_dim`."),
    vision: Type.Optional(VisionFacts),
    files: Type.Optional(Type.Array(Type.String(), { description: "The files the facts were read from, relative to the snapshot folder." })),
  },
  { $id: "ModelFacts", additionalProperties: false },
);
export type ModelFacts = Static<typeof ModelFacts>;
