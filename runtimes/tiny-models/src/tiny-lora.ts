import { writeGguf, type GgufTensor } from "./gguf-writer";
import { randomWeights, seededRandom } from "./prng";
import { writeSafetensors, type SafetensorsTensor } from "./safetensors-writer";
import { TINY_LLAMA_SIZE as SIZE } from "./tiny-llama";
import { hfTensorName } from "./tiny-llama-safetensors";

/** The tiny LoRA adapters' rank and alpha: llama.cpp and PEFT scale B·A by alpha / rank (here 4). */
export const TINY_LORA = { rank: 8, alpha: 32 } as const;

const KV = (SIZE.embedding / SIZE.heads) * SIZE.kvHeads;
/** Every linear module of each layer, with its input and output size. */
const MODULES = [
  { gguf: "attn_q", in: SIZE.embedding, out: SIZE.embedding },
  { gguf: "attn_k", in: SIZE.embedding, out: KV },
  { gguf: "attn_v", in: SIZE.embedding, out: KV },
  { gguf: "attn_output", in: SIZE.embedding, out: SIZE.embedding },
  { gguf: "ffn_gate", in: SIZE.embedding, out: SIZE.feedForward },
  { gguf: "ffn_up", in: SIZE.embedding, out: SIZE.feedForward },
  { gguf: "ffn_down", in: SIZE.feedForward, out: SIZE.embedding },
] as const;

/** PEFT's names of the same modules (the last part of the Hugging Face name). */
export const TINY_LORA_TARGET_MODULES = MODULES.map((m) => hfTensorName(`blk.0.${m.gguf}.weight`).split(".").at(-2)!);

interface LoraPair {
  /** The base tensor it changes, by its GGUF name: `blk.0.attn_q.weight`. */
  base: string;
  in: number;
  out: number;
  /** A: rank rows of `in` values; B: `out` rows of rank values (the same bytes in GGUF and PEFT). */
  a: Float32Array;
  b: Float32Array;
}

/**
 * The adapter's A and B for every linear module of every layer, random (seeded) and large: B·A
 * × alpha/rank is several times the base weight, so the adapted model's greedy answers differ
 * from the base's (a trained adapter starts with B = 0; this one is meant to be seen).
 */
function loraPairs(): LoraPair[] {
  const random = seededRandom(0x10a4ada);
  const pairs: LoraPair[] = [];
  for (let layer = 0; layer < SIZE.layers; layer++) {
    for (const m of MODULES) {
      pairs.push({ base: `blk.${layer}.${m.gguf}.weight`, in: m.in, out: m.out, a: randomWeights(random, TINY_LORA.rank * m.in, 1 / Math.sqrt(m.in)), b: randomWeights(random, m.out * TINY_LORA.rank, 1) });
    }
  }
  return pairs;
}

/**
 * The GGUF LoRA adapter of the tiny llama, as llama.cpp's convert_lora_to_gguf.py lays one out:
 * `general.type = adapter`, `adapter.type = lora`, `adapter.lora.alpha`, the base's architecture,
 * and per module `<base tensor>.lora_a` (ggml shape [in, rank]) and `.lora_b` ([rank, out]).
 */
export function buildTinyLoraGguf(baseRepo: string): Uint8Array {
  const tensors: GgufTensor[] = loraPairs().flatMap((p) => [
    { name: `${p.base}.lora_a`, shape: [p.in, TINY_LORA.rank], data: p.a },
    { name: `${p.base}.lora_b`, shape: [TINY_LORA.rank, p.out], data: p.b },
  ]);
  return writeGguf(
    {
      "general.architecture": { type: "string", value: "llama" },
      "general.type": { type: "string", value: "adapter" },
      "general.name": { type: "string", value: "svc tiny llama LoRA" },
      "general.file_type": { type: "u32", value: 0 },
      "general.base_model.count": { type: "u32", value: 1 },
      "general.base_model.0.name": { type: "string", value: "svc tiny llama" },
      "general.base_model.0.repo_url": { type: "string", value: `https://huggingface.co/${baseRepo}` },
      "adapter.type": { type: "string", value: "lora" },
      "adapter.lora.alpha": { type: "f32", value: TINY_LORA.alpha },
    },
    tensors,
  );
}

/**
 * The same adapter as PEFT saves one for the tiny llama's safetensors twin: adapter_config.json and
 * adapter_model.safetensors with `base_model.model.<module>.lora_A.weight` ([rank, in]) and
 * `.lora_B.weight` ([out, rank]).
 */
export function buildTinyLoraPeft(baseRepo: string): { config: Uint8Array; weights: Uint8Array } {
  const tensors: SafetensorsTensor[] = loraPairs().flatMap((p) => {
    const module = `base_model.model.${hfTensorName(p.base).replace(/\.weight$/, "")}`;
    return [
      { name: `${module}.lora_A.weight`, shape: [TINY_LORA.rank, p.in], data: p.a },
      { name: `${module}.lora_B.weight`, shape: [p.out, TINY_LORA.rank], data: p.b },
    ];
  });
  const config = {
    base_model_name_or_path: baseRepo,
    peft_type: "LORA",
    task_type: "CAUSAL_LM",
    r: TINY_LORA.rank,
    lora_alpha: TINY_LORA.alpha,
    lora_dropout: 0,
    target_modules: TINY_LORA_TARGET_MODULES,
    bias: "none",
    fan_in_fan_out: false,
    inference_mode: true,
    modules_to_save: null,
  };
  return { config: new TextEncoder().encode(`${JSON.stringify(config, null, 2)}\n`), weights: writeSafetensors(tensors) };
}
