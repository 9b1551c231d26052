/**
 * The tensors of a model's safetensors shards, derived from its config.json the way each family's
 * transformers checkpoint names and shapes them (test helper: the real files are too large to check
 * in; the shapes give their exact size).
 */

import { visionTowerTensors } from "./real-model-vision-tensors";

type Config = Record<string, any>;
export interface TensorSpec {
  name: string;
  shape: number[];
  dtype: "BF16" | "F32" | "F8_E4M3";
}

const BYTES: Record<TensorSpec["dtype"], number> = { BF16: 2, F32: 4, F8_E4M3: 1 };
export const tensorBytes = (tensor: TensorSpec) => tensor.shape.reduce((a, b) => a * b, 1) * BYTES[tensor.dtype];

/** A linear layer's weight, in fp8 with its scales where the checkpoint quantizes it. */
type Linear = (name: string, out: number, inp: number) => TensorSpec[];
const bf16Linear: Linear = (name, out, inp) => [{ name: `${name}.weight`, shape: [out, inp], dtype: "BF16" }];
/** DeepSeek's fp8: 128×128 blocks, a float32 inverse scale per block. */
const blockFp8Linear: Linear = (name, out, inp) => [
  { name: `${name}.weight`, shape: [out, inp], dtype: "F8_E4M3" },
  { name: `${name}.weight_scale_inv`, shape: [Math.ceil(out / 128), Math.ceil(inp / 128)], dtype: "F32" },
];
/** Meta's fbgemm fp8: a float32 scale per output row; listed modules stay bf16. */
const fbgemmLinear = (keep: string[]): Linear => (name, out, inp) =>
  keep.some((module) => name === `model.${module}` || name === module || name.endsWith(`.${module}`) || name === module.replace(/^model\./, ""))
    ? bf16Linear(name, out, inp)
    : [
        { name: `${name}.weight`, shape: [out, inp], dtype: "F8_E4M3" },
        { name: `${name}.weight_scale`, shape: [out, 1], dtype: "F32" },
      ];

const vector = (name: string, size: number): TensorSpec => ({ name, shape: [size], dtype: "BF16" });

function linearFor(config: Config): Linear {
  const quant = config.quantization_config?.quant_method;
  if (quant === "fp8") return blockFp8Linear;
  if (quant === "fbgemm_fp8") return fbgemmLinear(config.quantization_config.modules_to_not_convert ?? []);
  return bf16Linear;
}

function attention(config: Config, prefix: string, linear: Linear): TensorSpec[] {
  const { hidden_size: hidden, num_attention_heads: heads } = config;
  const kv = config.num_key_value_heads ?? heads;
  const hd = config.head_dim ?? hidden / heads;
  const tensors = [...linear(`${prefix}.q_proj`, heads * hd, hidden), ...linear(`${prefix}.k_proj`, kv * hd, hidden), ...linear(`${prefix}.v_proj`, kv * hd, hidden), ...linear(`${prefix}.o_proj`, hidden, heads * hd)];
  if (config.model_type === "qwen2" || config.model_type === "qwen2_vl") tensors.push(vector(`${prefix}.q_proj.bias`, heads * hd), vector(`${prefix}.k_proj.bias`, kv * hd), vector(`${prefix}.v_proj.bias`, kv * hd));
  if (config.model_type?.startsWith("qwen3")) tensors.push(vector(`${prefix}.q_norm.weight`, hd), vector(`${prefix}.k_norm.weight`, hd));
  return tensors;
}

function latentAttention(config: Config, prefix: string, linear: Linear): TensorSpec[] {
  const { hidden_size: hidden, num_attention_heads: heads, q_lora_rank: q, kv_lora_rank: kv, qk_nope_head_dim: nope, qk_rope_head_dim: rope, v_head_dim: v } = config;
  return [
    ...linear(`${prefix}.q_a_proj`, q, hidden),
    vector(`${prefix}.q_a_layernorm.weight`, q),
    ...linear(`${prefix}.q_b_proj`, heads * (nope + rope), q),
    ...linear(`${prefix}.kv_a_proj_with_mqa`, kv + rope, hidden),
    vector(`${prefix}.kv_a_layernorm.weight`, kv),
    ...linear(`${prefix}.kv_b_proj`, heads * (nope + v), kv),
    ...linear(`${prefix}.o_proj`, hidden, heads * v),
  ];
}

const gatedMlp = (prefix: string, hidden: number, inter: number, linear: Linear) => [...linear(`${prefix}.gate_proj`, inter, hidden), ...linear(`${prefix}.up_proj`, inter, hidden), ...linear(`${prefix}.down_proj`, hidden, inter)];

function feedForward(config: Config, layer: number, prefix: string, linear: Linear): TensorSpec[] {
  const hidden = config.hidden_size;
  if (config.model_type === "mixtral") {
    const experts = Array.from({ length: config.num_local_experts }, (_, e) => [
      ...linear(`${prefix}.block_sparse_moe.experts.${e}.w1`, config.intermediate_size, hidden),
      ...linear(`${prefix}.block_sparse_moe.experts.${e}.w2`, hidden, config.intermediate_size),
      ...linear(`${prefix}.block_sparse_moe.experts.${e}.w3`, config.intermediate_size, hidden),
    ]).flat();
    return [...bf16Linear(`${prefix}.block_sparse_moe.gate`, config.num_local_experts, hidden), ...experts];
  }
  if (config.model_type === "qwen3_moe") {
    const experts = Array.from({ length: config.num_experts }, (_, e) => gatedMlp(`${prefix}.mlp.experts.${e}`, hidden, config.moe_intermediate_size, linear)).flat();
    return [...bf16Linear(`${prefix}.mlp.gate`, config.num_experts, hidden), ...experts];
  }
  if (config.model_type === "deepseek_v3" && layer >= config.first_k_dense_replace) {
    const experts = Array.from({ length: config.n_routed_experts }, (_, e) => gatedMlp(`${prefix}.mlp.experts.${e}`, hidden, config.moe_intermediate_size, linear)).flat();
    return [
      ...bf16Linear(`${prefix}.mlp.gate`, config.n_routed_experts, hidden),
      { name: `${prefix}.mlp.gate.e_score_correction_bias`, shape: [config.n_routed_experts], dtype: "F32" },
      ...experts,
      ...gatedMlp(`${prefix}.mlp.shared_experts`, hidden, config.moe_intermediate_size * config.n_shared_experts, linear),
    ];
  }
  return gatedMlp(`${prefix}.mlp`, hidden, config.intermediate_size, linear);
}

function norms(config: Config, prefix: string): TensorSpec[] {
  const names = ["input_layernorm", "post_attention_layernorm", ...(config.model_type === "gemma2" ? ["pre_feedforward_layernorm", "post_feedforward_layernorm"] : [])];
  return names.map((name) => vector(`${prefix}.${name}.weight`, config.hidden_size));
}

/** Every tensor of the checkpoint, in the order the shards hold them. */
export function checkpointTensors(config: Config): TensorSpec[] {
  const linear = linearFor(config);
  const hidden = config.hidden_size;
  const tensors: TensorSpec[] = [{ name: "model.embed_tokens.weight", shape: [config.vocab_size, hidden], dtype: "BF16" }];
  const layers = config.num_hidden_layers + (config.num_nextn_predict_layers ?? 0);
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `model.layers.${layer}`;
    tensors.push(...(config.kv_lora_rank ? latentAttention(config, `${prefix}.self_attn`, linear) : attention(config, `${prefix}.self_attn`, linear)));
    tensors.push(...feedForward(config, layer, prefix, linear), ...norms(config, prefix));
    if (layer >= config.num_hidden_layers) {
      // DeepSeek's multi-token-prediction layer: its own norms, projection, embeddings and head.
      tensors.push(vector(`${prefix}.enorm.weight`, hidden), vector(`${prefix}.hnorm.weight`, hidden), ...bf16Linear(`${prefix}.eh_proj`, hidden, 2 * hidden), vector(`${prefix}.shared_head.norm.weight`, hidden));
      tensors.push({ name: `${prefix}.embed_tokens.weight`, shape: [config.vocab_size, hidden], dtype: "BF16" }, { name: `${prefix}.shared_head.head.weight`, shape: [config.vocab_size, hidden], dtype: "BF16" });
    }
  }
  tensors.push(vector("model.norm.weight", hidden));
  if (!config.tie_word_embeddings) tensors.push(...bf16Linear("lm_head", config.vocab_size, hidden));
  return [...tensors, ...visionTowerTensors(config)];
}
