import { closeSync, mkdirSync, openSync, truncateSync, writeSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Safetensors models of their true size without their weights: each shard is written as the
 * 8-byte little-endian header length, the JSON header (dtype, shape, data_offsets) and then a hole
 * up to the real size (`truncate`), so whatever reads only headers sees the real model. Tensors
 * are given with their real shapes, e.g. from a published model's layer list.
 */

export interface SparseTensor {
  name: string;
  dtype: "BF16" | "F16" | "F32" | "I32" | "U8" | "F8_E4M3";
  shape: number[];
}

const ELEMENT_BYTES: Record<SparseTensor["dtype"], number> = { BF16: 2, F16: 2, F32: 4, I32: 4, U8: 1, F8_E4M3: 1 };

export const tensorBytes = (t: SparseTensor) => t.shape.reduce((a, b) => a * b, 1) * ELEMENT_BYTES[t.dtype];

/** Writes one sparse shard; returns the bytes of its data region. */
export function writeSparseSafetensors(path: string, tensors: SparseTensor[]): number {
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  let offset = 0;
  for (const tensor of tensors) {
    const size = tensorBytes(tensor);
    header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const fd = openSync(path, "w");
  try {
    writeSync(fd, length);
    writeSync(fd, json);
  } finally {
    closeSync(fd);
  }
  truncateSync(path, 8 + json.length + offset);
  return offset;
}

/**
 * Writes `model-0000i-of-0000n.safetensors` shards into `dir` (tensors split in order into `shards`
 * nearly equal groups) and `model.safetensors.index.json` with its weight_map and total_size.
 * Returns the index's total_size.
 */
export function writeShardedSafetensors(dir: string, tensors: SparseTensor[], shards: number): number {
  mkdirSync(dir, { recursive: true });
  const name = (i: number) => `model-${String(i + 1).padStart(5, "0")}-of-${String(shards).padStart(5, "0")}.safetensors`;
  const weightMap: Record<string, string> = {};
  let total = 0;
  const perShard = Math.ceil(tensors.length / shards);
  for (let i = 0; i < shards; i++) {
    const group = tensors.slice(i * perShard, (i + 1) * perShard);
    for (const tensor of group) weightMap[tensor.name] = name(i);
    total += writeSparseSafetensors(join(dir, name(i)), group);
  }
  writeFileSync(join(dir, "model.safetensors.index.json"), JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2));
  return total;
}

/** The tensors of a Llama-architecture decoder from its config.json sizes (untied embeddings). */
export function llamaTensors(config: { hidden_size: number; intermediate_size: number; num_hidden_layers: number; num_attention_heads: number; num_key_value_heads: number; vocab_size: number }, dtype: SparseTensor["dtype"] = "BF16"): SparseTensor[] {
  const { hidden_size: h, intermediate_size: ff, num_hidden_layers: layers, vocab_size: vocab } = config;
  const kv = (h / config.num_attention_heads) * config.num_key_value_heads;
  const tensors: SparseTensor[] = [{ name: "model.embed_tokens.weight", dtype, shape: [vocab, h] }];
  for (let i = 0; i < layers; i++) {
    const p = `model.layers.${i}`;
    tensors.push(
      { name: `${p}.input_layernorm.weight`, dtype, shape: [h] },
      { name: `${p}.self_attn.q_proj.weight`, dtype, shape: [h, h] },
      { name: `${p}.self_attn.k_proj.weight`, dtype, shape: [kv, h] },
      { name: `${p}.self_attn.v_proj.weight`, dtype, shape: [kv, h] },
      { name: `${p}.self_attn.o_proj.weight`, dtype, shape: [h, h] },
      { name: `${p}.post_attention_layernorm.weight`, dtype, shape: [h] },
      { name: `${p}.mlp.gate_proj.weight`, dtype, shape: [ff, h] },
      { name: `${p}.mlp.up_proj.weight`, dtype, shape: [ff, h] },
      { name: `${p}.mlp.down_proj.weight`, dtype, shape: [h, ff] },
    );
  }
  tensors.push({ name: "model.norm.weight", dtype, shape: [h] }, { name: "lm_head.weight", dtype, shape: [vocab, h] });
  return tensors;
}

/** Meta-Llama-3.1-8B-Instruct's config.json (the fields that size it), as published. */
export const LLAMA_3_1_8B_CONFIG = {
  architectures: ["LlamaForCausalLM"],
  model_type: "llama",
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 128256,
  max_position_embeddings: 131072,
  torch_dtype: "bfloat16",
  rope_theta: 500000.0,
  tie_word_embeddings: false,
};
