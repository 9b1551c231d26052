/**
 * A model's snapshot as its real files are, without the weights: the checked-in config.json, and
 * safetensors shards of the true size whose headers list the real tensors, written as sparse files
 * (truncate: no gigabytes on disk), with model.safetensors.index.json. And the facts those files
 * give, read from the shards' headers as svc reads them (the 8-byte length and the JSON header).
 */
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ModelFacts } from "@svc/contracts";
import { checkpointTensors, tensorBytes, type TensorSpec } from "./model-tensors";

export const CONFIGS = join(import.meta.dir, "fixtures", "model-configs");
const SHARD_BYTES = 5e9;

/** Writes `name`'s snapshot into `dir`; returns the index's total_size. */
export function writeSnapshot(name: string, dir: string): number {
  mkdirSync(dir, { recursive: true });
  const config = JSON.parse(readFileSync(join(CONFIGS, name, "config.json"), "utf8"));
  copyFileSync(join(CONFIGS, name, "config.json"), join(dir, "config.json"));
  const shards: TensorSpec[][] = [[]];
  let size = 0;
  for (const tensor of checkpointTensors(config)) {
    if (size > 0 && size + tensorBytes(tensor) > SHARD_BYTES) {
      shards.push([]);
      size = 0;
    }
    shards[shards.length - 1].push(tensor);
    size += tensorBytes(tensor);
  }
  const weightMap: Record<string, string> = {};
  let total = 0;
  shards.forEach((tensors, i) => {
    const file = `model-${String(i + 1).padStart(5, "0")}-of-${String(shards.length).padStart(5, "0")}.safetensors`;
    const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
    let offset = 0;
    for (const tensor of tensors) {
      header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + tensorBytes(tensor)] };
      offset += tensorBytes(tensor);
      weightMap[tensor.name] = file;
    }
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(json.length));
    const fd = openSync(join(dir, file), "w");
    writeSync(fd, length);
    writeSync(fd, json);
    ftruncateSync(fd, 8 + json.length + offset);
    closeSync(fd);
    total += offset;
  });
  writeFileSync(join(dir, "model.safetensors.index.json"), JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2));
  return total;
}

const ELEMENT_BYTES: Record<string, number> = { BF16: 2, F16: 2, F32: 4, F8_E4M3: 1, I8: 1, U8: 1, I32: 4 };
const DTYPE_NAMES: Record<string, string> = { BF16: "bfloat16", F16: "float16", F32: "float32", F8_E4M3: "F8_E4M3" };

function header(path: string): Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }> {
  const fd = openSync(path, "r");
  try {
    const length = Buffer.alloc(8);
    readSync(fd, length, 0, 8, 0);
    const json = Buffer.alloc(Number(length.readBigUInt64LE()));
    readSync(fd, json, 0, json.length, 8);
    const { __metadata__: _, ...tensors } = JSON.parse(json.toString("utf8"));
    return tensors;
  } finally {
    closeSync(fd);
  }
}

/**
 * The facts of the snapshot in `dir`: config.json's architecture, the headers' exact parameter and
 * byte counts. TODO(lead): once the `facts` branch is in, read them with model-svc's reader instead.
 */
export function readFacts(dir: string): ModelFacts {
  const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
  let parameters = 0;
  let weightBytes = 0;
  const bytesByDtype = new Map<string, number>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".safetensors"))) {
    for (const tensor of Object.values(header(join(dir, file)))) {
      const count = tensor.shape.reduce((a, b) => a * b, 1);
      parameters += count;
      const bytes = tensor.data_offsets[1] - tensor.data_offsets[0];
      if (bytes !== count * ELEMENT_BYTES[tensor.dtype]) throw new Error(`${file}: ${tensor.dtype} ${tensor.shape} has ${bytes} bytes`);
      weightBytes += bytes;
      bytesByDtype.set(tensor.dtype, (bytesByDtype.get(tensor.dtype) ?? 0) + bytes);
    }
  }
  const dtype = [...bytesByDtype].sort((a, b) => b[1] - a[1])[0][0];
  const heads = config.num_attention_heads;
  const layerTypes: string[] | undefined = config.layer_types;
  const slidingLayers = !config.sliding_window || config.use_sliding_window === false ? 0 : layerTypes ? layerTypes.filter((type) => type === "sliding_attention").length : config.model_type === "gemma2" ? Math.ceil(config.num_hidden_layers / 2) : config.num_hidden_layers;
  return {
    architecture: config.architectures?.[0],
    modelType: config.model_type,
    parameters,
    weightBytes,
    dtype: DTYPE_NAMES[dtype] ?? dtype,
    ...(config.quantization_config ? { quantization: config.quantization_config.quant_method === "fbgemm_fp8" ? "fp8" : config.quantization_config.quant_method } : {}),
    layers: config.num_hidden_layers,
    hiddenSize: config.hidden_size,
    intermediateSize: config.intermediate_size,
    attentionHeads: heads,
    kvHeads: config.num_key_value_heads ?? heads,
    headDim: config.head_dim ?? config.hidden_size / heads,
    vocabSize: config.vocab_size,
    contextLength: config.max_position_embeddings,
    ...(config.sliding_window ? { slidingWindow: config.sliding_window, slidingWindowLayers: slidingLayers } : {}),
    ...(config.num_local_experts || config.n_routed_experts || config.num_experts ? { experts: config.num_local_experts ?? config.n_routed_experts ?? config.num_experts, expertsPerToken: config.num_experts_per_tok } : {}),
    ...(config.kv_lora_rank ? { kvLoraRank: config.kv_lora_rank, qkRopeHeadDim: config.qk_rope_head_dim } : {}),
  };
}
