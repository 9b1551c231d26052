/**
 * Model facts from real files at refresh: a multi-shard safetensors model of its true size (sparse
 * files: headers only, holes for the weights), GGUF files from the suite's own writer, a model
 * whose files say nothing, corrupt headers and a changed shard. No hub, no weights read.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeGguf, type GgufTensor } from "@svc/runtime-tiny-models/gguf-writer";
import { commitOf, files, LLAMA_3_1_8B_CONFIG, llamaTensors, repoDir, tensorBytes, writeCachedSnapshot, writeShardedSafetensors } from "@svc/testing";
import { scanLocal } from "../src/discovery/scan-local";
import { configFacts } from "../src/facts/config";
import { localProfile, makeServices, tempDir } from "./helpers";

const base = tempDir("model-facts-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const profile = localProfile("default", base);
const cacheModels = join(profile.cache_dir!, "models");

/** A snapshot folder of `repo` with plain (sparse) files in it, as a user's copy would have. */
function snapshotDir(repo: string, label: string): string {
  const dir = join(repoDir(cacheModels, repo), "snapshots", commitOf(label));
  mkdirSync(dir, { recursive: true });
  return dir;
}

const llama8b = llamaTensors(LLAMA_3_1_8B_CONFIG);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

test("a 4-shard 8B safetensors model: parameters from the shapes, bytes equal to the index's total_size, config facts", async () => {
  const dir = snapshotDir("meta-llama/Llama-3.1-8B-Instruct", "llama");
  writeFileSync(join(dir, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  const totalSize = writeShardedSafetensors(dir, llama8b, 4);
  const s = makeServices({ profiles: [profile] });
  const report = await s.models.refresh("default");
  expect(report.issues).toEqual([]);
  const [model] = s.models.list({ repo: "meta-llama/Llama-3.1-8B-Instruct" });
  // Computed here from the shapes, not by the code under test.
  const parameters = sum(llama8b.map((t) => t.shape.reduce((a, b) => a * b, 1)));
  expect(model.facts!.parameters).toBe(parameters);
  expect(model.facts!.weightBytes).toBe(totalSize);
  expect(totalSize).toBe(sum(llama8b.map(tensorBytes)));
  expect(model.facts).toMatchObject({
    architecture: "LlamaForCausalLM",
    modelType: "llama",
    dtype: "bfloat16",
    layers: 32,
    hiddenSize: 4096,
    intermediateSize: 14336,
    attentionHeads: 32,
    kvHeads: 8,
    headDim: 128,
    vocabSize: 128256,
    contextLength: 131072,
  });
  expect(model.facts!.files).toEqual(["config.json", "model.safetensors.index.json", ...[1, 2, 3, 4].map((i) => `model-0000${i}-of-00004.safetensors`)]);
  for (const absent of ["experts", "slidingWindow", "quantization", "kvLoraRank"]) expect(model.facts).not.toHaveProperty(absent);

  // A second refresh does not read the headers again; a shard that changes is read again.
  const { facts_key: key } = s.db.$client.query("SELECT facts_key FROM models").get() as { facts_key: string };
  const known = new Map([[model.modelDir, key]]);
  const again = scanLocal([cacheModels], known)[0].repos[0].snapshots[0].facts;
  expect(again.factsCached).toBe(true);
  expect(again.heads).toBeUndefined();
  const second = await s.models.refresh("default");
  expect(second.profiles[0]).toMatchObject({ unchanged: 1, updated: 0 });
  expect(s.models.list()[0].facts).toEqual(model.facts!);
  truncateSync(join(dir, "model-00004-of-00004.safetensors"), 100);
  const changed = await s.models.refresh("default");
  expect(changed.profiles[0]).toMatchObject({ updated: 1 });
  expect(changed.issues).toEqual([
    expect.objectContaining({ repo: "meta-llama/Llama-3.1-8B-Instruct", registered: true, reason: expect.stringMatching(/model-00004-of-00004\.safetensors: (the file ends inside|tensor .* lies outside)/) }),
  ]);
  const after = s.models.list()[0].facts!;
  expect(after.parameters).toBeUndefined();
  expect(after.weightBytes).toBeUndefined();
  expect(after.layers).toBe(32);
  s.close();
  rmSync(repoDir(cacheModels, "meta-llama/Llama-3.1-8B-Instruct"), { recursive: true });
});

test("a total_size that differs from the shards, a missing shard and a corrupt header are scan issues; the refresh goes on", async () => {
  const tensors = llamaTensors({ ...LLAMA_3_1_8B_CONFIG, num_hidden_layers: 2, vocab_size: 1024 });
  const mismatch = snapshotDir("acme/mismatch", "mismatch");
  writeFileSync(join(mismatch, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  const total = writeShardedSafetensors(mismatch, tensors, 2);
  const index = JSON.parse(readFileSync(join(mismatch, "model.safetensors.index.json"), "utf8"));
  writeFileSync(join(mismatch, "model.safetensors.index.json"), JSON.stringify({ ...index, metadata: { total_size: total + 2 } }));
  const missing = snapshotDir("acme/missing-shard", "missing");
  writeFileSync(join(missing, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  writeShardedSafetensors(missing, tensors, 2);
  rmSync(join(missing, "model-00002-of-00002.safetensors"));
  const corrupt = snapshotDir("acme/corrupt", "corrupt");
  writeFileSync(join(corrupt, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  const garbage = Buffer.alloc(64, 0x7b);
  garbage.writeBigUInt64LE(40n);
  writeFileSync(join(corrupt, "model.safetensors"), garbage);
  const huge = snapshotDir("acme/huge-header", "huge");
  writeFileSync(join(huge, "config.json"), JSON.stringify(LLAMA_3_1_8B_CONFIG));
  writeFileSync(join(huge, "model.safetensors"), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x7b]));

  const s = makeServices({ profiles: [profile] });
  const report = await s.models.refresh("default");
  expect(report.profiles[0]).toMatchObject({ status: "ok", added: 4 });
  const reasons = Object.fromEntries(report.issues.map((i) => [i.repo, i.reason]));
  expect(reasons["acme/mismatch"]).toBe(`its model facts are incomplete: model.safetensors.index.json: its total_size (${total + 2} bytes) differs from the shards' headers (${total} bytes)`);
  expect(reasons["acme/missing-shard"]).toBe("its model facts are incomplete: model-00002-of-00002.safetensors: named by model.safetensors.index.json but missing from the snapshot");
  expect(reasons["acme/corrupt"]).toBe("its model facts are incomplete: model.safetensors: its header is not valid JSON");
  expect(reasons["acme/huge-header"]).toMatch(/model\.safetensors: its header length \(\d+ bytes\) is larger than the format allows/);
  expect(report.issues.every((i) => i.registered === true)).toBe(true);
  for (const model of s.models.list()) {
    // What config.json says is kept; nothing is made up for the weights.
    expect(model.facts).toMatchObject({ layers: 32, kvHeads: 8, dtype: "bfloat16" });
    expect(model.facts).not.toHaveProperty("parameters");
    expect(model.facts).not.toHaveProperty("weightBytes");
  }
  s.close();
  for (const repo of ["acme/mismatch", "acme/missing-shard", "acme/corrupt", "acme/huge-header"]) rmSync(repoDir(cacheModels, repo), { recursive: true });
});

/** A GGUF written by the suite's GGUF writer: a small mixture-of-experts "qwen2moe" with a Q4_K_M file type. */
function moeGguf(tensors: GgufTensor[], extra: Record<string, number> = {}) {
  const u32 = (value: number) => ({ type: "u32" as const, value });
  return writeGguf(
    {
      "general.architecture": { type: "string", value: "qwen2moe" },
      "general.file_type": u32(15),
      "qwen2moe.block_count": u32(3),
      "qwen2moe.context_length": u32(32768),
      "qwen2moe.embedding_length": u32(64),
      "qwen2moe.feed_forward_length": u32(96),
      "qwen2moe.attention.head_count": u32(8),
      "qwen2moe.attention.head_count_kv": u32(2),
      "qwen2moe.expert_count": u32(8),
      "qwen2moe.expert_used_count": u32(2),
      "tokenizer.ggml.tokens": { type: "string[]", value: ["a", "b", "c", "d", "e"] },
      ...Object.fromEntries(Object.entries(extra).map(([key, value]) => [key, u32(value)])),
    },
    tensors,
  );
}
const tensor = (name: string, shape: number[]): GgufTensor => ({ name, shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)) });

test("GGUF files: the facts are what the writer wrote; a split model sums its parts; a README-only model has no facts", async () => {
  const one = [tensor("token_embd.weight", [64, 5]), tensor("blk.0.attn_q.weight", [64, 64]), tensor("output_norm.weight", [64])];
  const bytes = moeGguf(one);
  writeCachedSnapshot(cacheModels, "acme/moe-gguf", commitOf("moe"), [
    { path: "moe-Q4_K_M.gguf", content: bytes },
    // Not the first file by name: not read.
    { path: "zz-other.gguf", content: new Uint8Array([0x47, 0x47, 0x55, 0x46, 1]) },
  ]);
  const parts = [[tensor("token_embd.weight", [64, 5])], [tensor("blk.0.ffn_up.weight", [64, 96]), tensor("blk.1.ffn_up.weight", [64, 96])]];
  const split = parts.map((p) => moeGguf(p));
  writeCachedSnapshot(cacheModels, "acme/split-gguf", commitOf("split"), [
    { path: "split-00001-of-00002.gguf", content: split[0] },
    { path: "split-00002-of-00002.gguf", content: split[1] },
  ]);
  writeCachedSnapshot(cacheModels, "acme/card-only", commitOf("card"), files.cardOnly("text-generation"));
  writeCachedSnapshot(cacheModels, "acme/not-gguf", commitOf("not-gguf"), [
    { path: "model.gguf", content: new Uint8Array([0x47, 0x47, 0x55, 0x46, 9, 9, 9, 9]) },
  ]);

  const s = makeServices({ profiles: [profile] });
  const report = await s.models.refresh("default");
  const byRepo = Object.fromEntries(s.models.list().map((m) => [m.repo, m]));
  const elements = (list: GgufTensor[]) => sum(list.map((t) => t.data.length));
  expect(byRepo["acme/moe-gguf"].facts).toEqual({
    architecture: "qwen2moe",
    layers: 3,
    hiddenSize: 64,
    intermediateSize: 96,
    attentionHeads: 8,
    kvHeads: 2,
    headDim: 8,
    contextLength: 32768,
    experts: 8,
    expertsPerToken: 2,
    vocabSize: 5,
    dtype: "Q4_K_M",
    quantization: "Q4_K_M",
    parameters: elements(one),
    // The data region: the file less its header (tensor data are 32-byte aligned).
    weightBytes: sum(one.map((t) => Math.ceil(t.data.byteLength / 32) * 32)),
    weightFormat: "gguf",
    files: ["moe-Q4_K_M.gguf"],
  });
  expect(byRepo["acme/split-gguf"].facts).toMatchObject({
    parameters: elements(parts.flat()),
    weightBytes: sum(parts.flat().map((t) => t.data.byteLength)),
    files: ["split-00001-of-00002.gguf", "split-00002-of-00002.gguf"],
  });
  expect(byRepo["acme/card-only"].facts).toBeUndefined();
  expect(byRepo["acme/not-gguf"].facts).toBeUndefined();
  expect(report.issues).toEqual([expect.objectContaining({ repo: "acme/not-gguf", registered: true, reason: expect.stringContaining("model.gguf: not a GGUF file: unsupported version") })]);
  s.close();
});

test("config.json: text_config of a multimodal model gives the language model's shape, vision_config marks a vision tower; a window switched off is no window", () => {
  const facts = configFacts(
    JSON.stringify({
      architectures: ["Mistral3ForConditionalGeneration"],
      model_type: "mistral3",
      text_config: { hidden_size: 5120, num_hidden_layers: 40, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, vocab_size: 131072, max_position_embeddings: 131072, torch_dtype: "bfloat16", sliding_window: null },
      vision_config: { hidden_size: 1024, num_hidden_layers: 24 },
      quantization_config: { quant_method: "fp8" },
    }),
  );
  expect(facts).toEqual({
    architecture: "Mistral3ForConditionalGeneration",
    modelType: "mistral3",
    hiddenSize: 5120,
    layers: 40,
    attentionHeads: 32,
    kvHeads: 8,
    headDim: 128,
    vocabSize: 131072,
    contextLength: 131072,
    dtype: "bfloat16",
    quantization: "fp8",
    vision: {},
  });
  // The language model's fields win over top-level ones; the vision tower's own sizes are never the model's.
  const llava = configFacts(JSON.stringify({ architectures: ["LlavaForConditionalGeneration"], model_type: "llava", vocab_size: 32064, text_config: { model_type: "llama", hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 }, vision_config: { model_type: "clip_vision_model", hidden_size: 1024, num_hidden_layers: 24, num_attention_heads: 16 } }));
  expect(llava).toMatchObject({ hiddenSize: 4096, layers: 32, attentionHeads: 32, kvHeads: 32, headDim: 128, vocabSize: 32000, modelType: "llava", vision: { modelType: "clip_vision_model" } });
  const deepseek = configFacts(JSON.stringify({ architectures: ["DeepseekV3ForCausalLM"], model_type: "deepseek_v3", hidden_size: 7168, num_attention_heads: 128, n_routed_experts: 256, num_experts_per_tok: 8, kv_lora_rank: 512, qk_rope_head_dim: 64 }));
  expect(deepseek).toMatchObject({ experts: 256, expertsPerToken: 8, kvLoraRank: 512, qkRopeHeadDim: 64, headDim: 56, kvHeads: 128 });
  expect(configFacts(JSON.stringify({ model_type: "qwen2", sliding_window: 131072, use_sliding_window: false }))).toEqual({ modelType: "qwen2" });
  expect(configFacts(JSON.stringify({ model_type: "mistral", sliding_window: 4096 }))).toEqual({ modelType: "mistral", slidingWindow: 4096 });
  // Which layers slide: all (Mistral 7B v0.1), every other one (Gemma 2), as listed, or those past Qwen2's max_window_layers.
  const sliding = (config: object) => configFacts(JSON.stringify({ num_hidden_layers: 46, sliding_window: 4096, ...config })).slidingWindowLayers;
  expect(sliding({ model_type: "mistral" })).toBe(46);
  expect(sliding({ model_type: "gemma2" })).toBe(23);
  expect(sliding({ model_type: "gemma3_text", sliding_window_pattern: 6 })).toBe(39);
  expect(sliding({ layer_types: ["sliding_attention", "full_attention", "sliding_attention"] })).toBe(2);
  expect(sliding({ model_type: "qwen2", use_sliding_window: true, max_window_layers: 40 })).toBe(6);
  expect(sliding({ model_type: "qwen2", use_sliding_window: false, max_window_layers: 40 })).toBeUndefined();
  expect(() => configFacts("[1, 2]")).toThrow("not a JSON object");
});
