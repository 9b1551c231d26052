/** The tiny LoRA adapters' files say what real ones say: read here as a reader of each format would. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTinyModels, TINY_LORA, TINY_LORA_GGUF_FILE, TINY_LORA_TARGET_MODULES, TINY_SAFETENSORS_REPO, TINY_TEXT_REPO } from "../src";

const cache = mkdtempSync(join(tmpdir(), "svc-tiny-adapters-"));
const models = makeTinyModels(cache);
afterAll(() => rmSync(cache, { recursive: true, force: true }));

type Header = Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
function safetensorsHeader(path: string): { header: Header; dataBytes: number } {
  const bytes = readFileSync(path);
  const length = Number(bytes.readBigUInt64LE(0));
  const { __metadata__: _, ...header } = JSON.parse(bytes.subarray(8, 8 + length).toString("utf8"));
  return { header, dataBytes: bytes.length - 8 - length };
}

test("the safetensors llama: its config's sizes are its tensors' shapes", () => {
  const config = JSON.parse(readFileSync(join(models.textGenerationSafetensors, "config.json"), "utf8"));
  const { header, dataBytes } = safetensorsHeader(join(models.textGenerationSafetensors, "model.safetensors"));
  expect(config).toMatchObject({ architectures: ["LlamaForCausalLM"], hidden_size: 64, intermediate_size: 128, num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2 });
  expect(header["model.embed_tokens.weight"].shape).toEqual([config.vocab_size, 64]);
  expect(header["model.layers.1.self_attn.k_proj.weight"].shape).toEqual([32, 64]);
  expect(header["model.layers.0.mlp.down_proj.weight"].shape).toEqual([64, 128]);
  const last = Math.max(...Object.values(header).map((t) => t.data_offsets[1]));
  expect(last).toBe(dataBytes);
});

test("the PEFT adapter: adapter_config.json names its base, rank, alpha and modules; its A and B fit the base's shapes", () => {
  const config = JSON.parse(readFileSync(join(models.loraPeft, "adapter_config.json"), "utf8"));
  expect(config).toMatchObject({ base_model_name_or_path: TINY_SAFETENSORS_REPO, peft_type: "LORA", task_type: "CAUSAL_LM", r: TINY_LORA.rank, lora_alpha: TINY_LORA.alpha });
  expect(config.target_modules).toEqual(["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]);
  const { header } = safetensorsHeader(join(models.loraPeft, "adapter_model.safetensors"));
  const base = safetensorsHeader(join(models.textGenerationSafetensors, "model.safetensors")).header;
  expect(Object.keys(header)).toHaveLength(2 * 2 * TINY_LORA_TARGET_MODULES.length);
  for (const [name, tensor] of Object.entries(header)) {
    const [, module, which] = /^base_model\.model\.(.*)\.lora_([AB])\.weight$/.exec(name)!;
    const [out, inFeatures] = base[`${module}.weight`].shape;
    expect(tensor.shape).toEqual(which === "A" ? [TINY_LORA.rank, inFeatures] : [out, TINY_LORA.rank]);
  }
});

test("the GGUF adapter: general.type adapter, adapter.type lora, its alpha, the base's architecture and repo", async () => {
  const { gguf } = await import("@huggingface/gguf");
  const path = join(models.loraGguf, TINY_LORA_GGUF_FILE);
  const { metadata, tensorInfos } = await gguf(path, { allowLocalFile: true });
  expect(metadata).toMatchObject({
    "general.type": "adapter",
    "general.architecture": "llama",
    "adapter.type": "lora",
    "adapter.lora.alpha": TINY_LORA.alpha,
    "general.base_model.0.repo_url": `https://huggingface.co/${TINY_TEXT_REPO}`,
  });
  const q = tensorInfos.find((t) => t.name === "blk.0.attn_q.weight.lora_a")!;
  expect(q.shape.map(Number)).toEqual([64, TINY_LORA.rank]);
  const down = tensorInfos.find((t) => t.name === "blk.1.ffn_down.weight.lora_b")!;
  expect(down.shape.map(Number)).toEqual([TINY_LORA.rank, 64]);
});
