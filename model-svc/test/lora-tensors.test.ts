/** LoRA tensors → the modules they change, as PEFT and llama.cpp lay them out. */
import { expect, test } from "bun:test";
import { ggufHalves, loraModules, peftHalves } from "../src/facts/lora-tensors";

const module = (name: string, inFeatures: number, outFeatures: number, rank: number, layers: number) => ({ name, inFeatures, outFeatures, rank, layers });

const cases = [
  {
    title: "PEFT: A is [rank, in], B [out, rank]; an embedding's lora_embedding_A is [rank, vocab]; tensors saved whole are left out",
    halves: peftHalves([
      { name: "base_model.model.model.layers.0.mlp.down_proj.lora_A.weight", shape: [16, 14336] },
      { name: "base_model.model.model.layers.0.mlp.down_proj.lora_B.weight", shape: [4096, 16] },
      { name: "base_model.model.model.layers.31.mlp.down_proj.lora_A.weight", shape: [16, 14336] },
      { name: "base_model.model.model.layers.31.mlp.down_proj.lora_B.weight", shape: [4096, 16] },
      { name: "base_model.model.model.embed_tokens.lora_embedding_A", shape: [16, 128256] },
      { name: "base_model.model.model.embed_tokens.lora_embedding_B", shape: [4096, 16] },
      { name: "base_model.model.lm_head.weight", shape: [128256, 4096] },
    ]),
    modules: [module("mlp.down_proj", 14336, 4096, 16, 2), module("embed_tokens", 128256, 4096, 16, 0)],
    layers: 32,
    rank: 16,
  },
  {
    title: "GGUF: lora_a is [in, rank] and lora_b [rank, out] in ggml order; the token embedding's A is transposed, as convert_lora_to_gguf.py writes it",
    halves: ggufHalves([
      { name: "blk.3.attn_k.weight.lora_a", shape: [4096, 32] },
      { name: "blk.3.attn_k.weight.lora_b", shape: [32, 1024] },
      { name: "token_embd.weight.lora_a", shape: [32, 128256] },
      { name: "token_embd.weight.lora_b", shape: [32, 4096] },
      { name: "blk.3.attn_norm.weight", shape: [4096] },
    ]),
    modules: [module("attn_k", 4096, 1024, 32, 1), module("token_embd", 128256, 4096, 32, 0)],
    layers: 4,
    rank: 32,
  },
];

for (const { title, halves, ...expected } of cases) test(title, () => expect(loraModules(halves)).toEqual(expected));

test("an A and a B of different ranks, or a half without the other, leave the modules unknown, saying why", () => {
  expect(
    loraModules(
      peftHalves([
        { name: "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight", shape: [8, 64] },
        { name: "base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight", shape: [64, 16] },
        { name: "base_model.model.model.layers.0.self_attn.v_proj.lora_B.weight", shape: [32, 8] },
      ]),
    ),
  ).toEqual({ problems: ["model.layers.0.self_attn.q_proj: its A has rank 8, its B 16", "model.layers.0.self_attn.v_proj has its LoRA B without its A"] });
});
