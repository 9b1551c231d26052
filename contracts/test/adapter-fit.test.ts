import { describe, expect, test } from "bun:test";
import { adapterFit, type AdapterFacts, type AdapterModule, type ModelFacts } from "../src";

/** Llama-3.1-8B's sizes, as its config.json gives them. */
const LLAMA_8B: ModelFacts = { architecture: "LlamaForCausalLM", weightFormat: "safetensors", layers: 32, hiddenSize: 4096, intermediateSize: 14336, attentionHeads: 32, kvHeads: 8, headDim: 128, vocabSize: 128256 };
/** Llama-3.2-1B's. */
const LLAMA_1B: ModelFacts = { architecture: "LlamaForCausalLM", weightFormat: "safetensors", layers: 16, hiddenSize: 2048, intermediateSize: 8192, attentionHeads: 32, kvHeads: 8, headDim: 64, vocabSize: 128256 };

const module = (name: string, inFeatures: number, outFeatures: number, layers = 32): AdapterModule => ({ name, inFeatures, outFeatures, rank: 16, layers });
/** A PEFT adapter of Llama-3.1-8B on q, k, v, o and down. */
const peft8b: AdapterFacts = {
  kind: "peft",
  file: "adapter_model.safetensors",
  base: "meta-llama/Llama-3.1-8B",
  rank: 16,
  alpha: 32,
  layers: 32,
  modules: [module("self_attn.q_proj", 4096, 4096), module("self_attn.k_proj", 4096, 1024), module("self_attn.v_proj", 4096, 1024), module("self_attn.o_proj", 4096, 4096), module("mlp.down_proj", 14336, 4096)],
};
const adapter = (facts: AdapterFacts, modelFacts: ModelFacts = { weightFormat: "safetensors" }) => ({ repo: "acme/lora", facts: modelFacts, adapter: facts });
const base = (repo: string, facts: ModelFacts) => ({ repo, facts });

describe("adapterFit", () => {
  test("an adapter on the base it was trained on fits, with nothing left unchecked", () => {
    expect(adapterFit(adapter(peft8b), base("meta-llama/Llama-3.1-8B", LLAMA_8B))).toEqual({ fits: true, problems: [], notes: [] });
  });

  test("an adapter of another base is refused, each module that does not match named with both shapes, and the layers it reaches", () => {
    const fit = adapterFit(adapter(peft8b), base("meta-llama/Llama-3.2-1B", LLAMA_1B));
    expect(fit.fits).toBe(false);
    expect(fit.problems).toContain("self_attn.q_proj is 4096→4096 in acme/lora, 2048→2048 in meta-llama/Llama-3.2-1B.");
    expect(fit.problems).toContain("self_attn.k_proj is 4096→1024 in acme/lora, 2048→512 in meta-llama/Llama-3.2-1B.");
    expect(fit.problems).toContain("mlp.down_proj is 14336→4096 in acme/lora, 8192→2048 in meta-llama/Llama-3.2-1B.");
    expect(fit.problems).toContain("acme/lora's tensors reach layer 31; meta-llama/Llama-3.2-1B has 16 layers.");
    expect(fit.notes).toContain("acme/lora names meta-llama/Llama-3.1-8B as its base, not meta-llama/Llama-3.2-1B.");
  });

  test("a fine-tune of the same shapes fits; that the adapter names another base is a note, not a refusal", () => {
    const fit = adapterFit(adapter(peft8b), base("acme/llama-8b-finetune", LLAMA_8B));
    expect(fit).toEqual({ fits: true, problems: [], notes: ["acme/lora names meta-llama/Llama-3.1-8B as its base, not acme/llama-8b-finetune."] });
  });

  test("the weight format decides the engine: a GGUF adapter needs a GGUF base, a PEFT one safetensors", () => {
    const gguf: AdapterFacts = { kind: "gguf", file: "lora.gguf", modules: [] };
    expect(adapterFit(adapter(gguf, { architecture: "llama" }), base("meta-llama/Llama-3.1-8B", LLAMA_8B)).problems).toEqual([
      "acme/lora is a GGUF adapter, which llama.cpp applies to a GGUF model; meta-llama/Llama-3.1-8B's weights are safetensors.",
    ]);
    expect(adapterFit(adapter({ ...peft8b, modules: [] }), base("acme/llama-gguf", { ...LLAMA_8B, weightFormat: "gguf", architecture: "llama" })).problems).toEqual([
      "acme/lora is a PEFT adapter, which vLLM and SGLang apply to safetensors weights; acme/llama-gguf's weights are gguf.",
    ]);
  });

  test("a GGUF adapter names its architecture: one of another is refused, whatever the shapes", () => {
    const gguf: AdapterFacts = { kind: "gguf", file: "lora.gguf", layers: 2, modules: [{ name: "attn_q", inFeatures: 64, outFeatures: 64, rank: 8, layers: 2 }] };
    const tiny: ModelFacts = { architecture: "qwen2", weightFormat: "gguf", layers: 2, hiddenSize: 64, attentionHeads: 4, kvHeads: 2, headDim: 16 };
    const fit = adapterFit(adapter(gguf, { architecture: "llama", weightFormat: "gguf" }), base("acme/tiny-qwen", tiny));
    expect(fit.problems).toEqual(["acme/lora is an adapter of a llama model; acme/tiny-qwen is qwen2."]);
    expect(adapterFit(adapter(gguf, { architecture: "llama", weightFormat: "gguf" }), base("acme/tiny-llama", { ...tiny, architecture: "llama" })).fits).toBe(true);
  });

  test("GGUF module names are checked like PEFT's; the embedding and output by the vocabulary", () => {
    const gguf: AdapterFacts = {
      kind: "gguf",
      file: "lora.gguf",
      modules: [
        { name: "attn_k", inFeatures: 64, outFeatures: 32, rank: 8, layers: 2 },
        { name: "output", inFeatures: 64, outFeatures: 500, rank: 8, layers: 0 },
        { name: "token_embd", inFeatures: 469, outFeatures: 64, rank: 8, layers: 0 },
      ],
    };
    const tiny: ModelFacts = { architecture: "llama", weightFormat: "gguf", layers: 2, hiddenSize: 64, attentionHeads: 4, kvHeads: 2, headDim: 16, vocabSize: 469 };
    expect(adapterFit(adapter(gguf, { architecture: "llama" }), base("acme/tiny", tiny)).problems).toEqual(["output is 64→500 in acme/lora, 64→469 in acme/tiny."]);
  });

  test("what the facts do not give is not guessed: unknown sizes and modules are notes, not refusals", () => {
    const withUnknown: AdapterFacts = { ...peft8b, modules: [...peft8b.modules!, module("attn.c_attn", 4096, 12288)] };
    const fit = adapterFit(adapter(withUnknown), base("acme/no-config", { weightFormat: "safetensors" }));
    expect(fit.fits).toBe(true);
    expect(fit.notes).toContain("Not checked (acme/no-config's hidden size is unknown): self_attn.q_proj, self_attn.k_proj, self_attn.v_proj.");
    expect(fit.notes).toContain("Not checked (acme/no-config's intermediate size is unknown): mlp.down_proj.");
    expect(fit.notes).toContain("Not checked (acme/no-config's attention heads × head dim is unknown): self_attn.o_proj.");
    expect(fit.notes).toContain("Not checked (svc does not know these modules' shapes): attn.c_attn.");
    expect(adapterFit(adapter({ kind: "peft", file: "adapter_model.safetensors" }), base("acme/x", {})).notes).toEqual([
      "acme/x's weight format is unknown: not checked against a peft adapter.",
      "acme/lora's tensor shapes are unknown: its modules were not checked against acme/x.",
    ]);
  });

  test("a mixture of experts' MLP modules are not checked against the dense intermediate size", () => {
    const moe: AdapterFacts = { kind: "peft", file: "adapter_model.safetensors", modules: [module("self_attn.q_proj", 2048, 4096, 48), module("mlp.gate_proj", 2048, 768, 48)] };
    const qwen3Moe: ModelFacts = { weightFormat: "safetensors", layers: 48, hiddenSize: 2048, intermediateSize: 6144, attentionHeads: 32, kvHeads: 4, headDim: 128, experts: 128 };
    const fit = adapterFit(adapter(moe), base("Qwen/Qwen3-30B-A3B", qwen3Moe));
    expect(fit.fits).toBe(true);
    expect(fit.notes).toEqual(["Not checked (Qwen/Qwen3-30B-A3B is a mixture of experts, whose MLP sizes svc does not hold): mlp.gate_proj."]);
  });

  test("an adapter is never a base", () => {
    expect(adapterFit(adapter(peft8b), { repo: "acme/other-lora", facts: {}, adapter: peft8b }).problems).toEqual(["acme/other-lora is a LoRA adapter itself, not a model to apply one to."]);
  });
});
