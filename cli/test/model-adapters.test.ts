/** `svc model ls` and `svc model show` with LoRA adapters in the registry. */
import { expect, test } from "bun:test";
import type { Model } from "@svc/contracts";
import { adapterBaseNotes, modelTable } from "../src/commands/model/ls";
import { describeModel } from "../src/commands/model/show";

const row = (repo: string, extra: Partial<Model> = {}): Model => ({
  repo,
  revision: "a".repeat(40),
  profile: "default",
  image: "text-generation",
  modelDir: `/m/${repo}`,
  sizeBytes: 1000,
  partial: false,
  seenAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const base = row("svc-tiny/tiny-llama-gguf", { facts: { parameters: 125000, weightBytes: 500000, weightFormat: "gguf" } });
const gguf = row("svc-tiny/tiny-llama-lora-gguf", {
  facts: { architecture: "llama", parameters: 3584, weightBytes: 14336, dtype: "F32", weightFormat: "gguf", files: ["lora.gguf"] },
  adapter: { kind: "gguf", file: "lora.gguf", base: "svc-tiny/tiny-llama-gguf", rank: 8, alpha: 32, layers: 2, targetModules: ["attn_q", "attn_v"], modules: [{ name: "attn_q", inFeatures: 64, outFeatures: 64, rank: 8, layers: 2 }, { name: "attn_v", inFeatures: 64, outFeatures: 32, rank: 8, layers: 2 }] },
  adapterBase: { state: "registered", repo: "svc-tiny/tiny-llama-gguf", problems: [], message: "Base svc-tiny/tiny-llama-gguf is registered." },
});
const orphan = row("acme/lora", {
  adapter: { kind: "peft", file: "adapter_model.safetensors", base: "meta-llama/Llama-3.1-8B", rank: 16 },
  adapterBase: { state: "not_registered", repo: "meta-llama/Llama-3.1-8B", problems: [], message: "Base meta-llama/Llama-3.1-8B is not in the registry of profile default: svc model add meta-llama/Llama-3.1-8B" },
});

test("ls: a BASE column once an adapter is listed, the base marked when the registry lacks it; a note says what is missing", () => {
  const lines = modelTable([base, gguf, orphan]).split("\n");
  expect(lines[0]).toMatch(/^REPO +REVISION +PROFILE +IMAGE +BASE +PARAMS +WEIGHTS +FILES$/);
  expect(lines[1]).toMatch(/^svc-tiny\/tiny-llama-gguf +a{40} +default +text-generation +- +125K +500 kB +all$/);
  expect(lines[2]).toMatch(/^svc-tiny\/tiny-llama-lora-gguf +a{40} +default +text-generation +svc-tiny\/tiny-llama-gguf +3\.58K +14\.3 kB +all$/);
  expect(lines[3]).toMatch(/^acme\/lora +a{40} +default +text-generation +meta-llama\/Llama-3\.1-8B \(not registered\) +unknown +unknown +all$/);
  expect(adapterBaseNotes([base, gguf, orphan])).toEqual(["acme/lora (default): Base meta-llama/Llama-3.1-8B is not in the registry of profile default: svc model add meta-llama/Llama-3.1-8B"]);
  // Without adapters, the columns are the spec's as before.
  expect(modelTable([base]).split("\n")[0]).toMatch(/^REPO +REVISION +PROFILE +IMAGE +PARAMS +WEIGHTS +FILES$/);
});

test("show: an adapter's base and its state, rank, alpha, modules with their shapes, then its own file's facts", () => {
  const text = describeModel(gguf);
  expect(text).toContain("adapter:        LoRA, gguf (lora.gguf)\n");
  expect(text).toContain("base:           svc-tiny/tiny-llama-gguf\n");
  expect(text).toContain("base_state:     registered: Base svc-tiny/tiny-llama-gguf is registered.\n");
  expect(text).toContain("rank:           8\nalpha:          32\n");
  expect(text).toContain("target_modules: attn_q, attn_v\n");
  expect(text).toContain("modules:        attn_q 64→64 ×2, attn_v 64→32 ×2\n");
  expect(text).toContain("parameters:     3.58K (3,584)\n");
  expect(text).toContain("weight_format:  gguf\n");
  // No layers or heads of its own.
  expect(text).not.toContain("hidden_size:");
  expect(describeModel(orphan)).toContain("base_state:     not_registered: Base meta-llama/Llama-3.1-8B is not in the registry of profile default: svc model add meta-llama/Llama-3.1-8B\n");
  expect(describeModel(base)).toContain("hidden_size:    unknown\n");
});

test("ls and show: a vision-language model is text-generation marked (vision), with its vision tower's size", () => {
  const vlm = row("Qwen/Qwen2-VL-2B-Instruct", { facts: { architecture: "Qwen2VLForConditionalGeneration", parameters: 2208985600, weightBytes: 4417971200, vision: { parameters: 665271296, weightBytes: 1330542592 } } });
  expect(modelTable([vlm]).split("\n")[1]).toMatch(/^Qwen\/Qwen2-VL-2B-Instruct +a{40} +default +text-generation \(vision\) +2\.21B +4\.42 GB +all$/);
  expect(describeModel(vlm)).toMatch(/\nvision_tower: +665M parameters, 1\.33 GB\n/);
  expect(describeModel(row("acme/llava", { facts: { vision: { modelType: "clip_vision_model" } } }))).toMatch(/\nvision_tower: +yes \(its tensors were not found in the weight headers\) \(clip_vision_model\)\n/);
});
