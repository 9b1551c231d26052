import type { AdapterModule } from "@svc/contracts";

/**
 * The modules a LoRA adapter changes, from its tensors' names and shapes. Each changed module has
 * an A (rank × its input size) and a B (its output size × rank); PEFT and GGUF name and lay them
 * out differently, so each format turns its tensors into halves first:
 *   PEFT  `<module>.lora_A.weight` [rank, in], `.lora_B.weight` [out, rank] (an embedding's
 *         `lora_embedding_A` [rank, vocab], `lora_embedding_B` [hidden, rank]), PyTorch order;
 *   GGUF  `<base tensor>.lora_a` [in, rank], `.lora_b` [rank, out] in ggml order, except the
 *         token embedding's A, [rank, vocab] (convert_lora_to_gguf.py transposes it).
 */

interface Half {
  /** The changed tensor: `model.layers.3.self_attn.q_proj`, `blk.3.attn_q`. */
  target: string;
  side: "a" | "b";
  rank: number;
  /** A: the module's input size; B: its output size. */
  size: number;
}

export interface LoraModules {
  modules: AdapterModule[];
  /** The highest layer number + 1 (0 when no tensor is inside a layer). */
  layers: number;
  /** The largest rank. */
  rank: number;
}

export interface TensorShape {
  name: string;
  shape: number[];
}

/** Halves of a PEFT adapter_model.safetensors (other tensors, such as modules saved whole, are left out). */
export function peftHalves(tensors: TensorShape[]): { halves: Half[]; problems: string[] } {
  const halves: Half[] = [];
  const problems: string[] = [];
  for (const { name, shape } of tensors) {
    const match = /^(?:base_model\.model\.)?(.*)\.lora_(?:(A|B)(?:\.[^.]+)?\.weight|embedding_(A|B))$/.exec(name);
    if (!match) continue;
    if (shape.length !== 2) {
      problems.push(`${name} has ${shape.length} dimensions, not the 2 of a LoRA matrix`);
      continue;
    }
    const side = (match[2] ?? match[3]).toLowerCase() as "a" | "b";
    halves.push(side === "a" ? { target: match[1], side, rank: shape[0], size: shape[1] } : { target: match[1], side, rank: shape[1], size: shape[0] });
  }
  return { halves, problems };
}

/** Halves of a GGUF LoRA adapter, from its tensor infos' shapes (ggml order). */
export function ggufHalves(tensors: TensorShape[]): { halves: Half[]; problems: string[] } {
  const halves: Half[] = [];
  const problems: string[] = [];
  for (const { name, shape } of tensors) {
    const match = /^(.*?)(?:\.weight)?\.lora_(a|b)$/.exec(name);
    if (!match) continue;
    if (shape.length < 2) {
      problems.push(`${name} has ${shape.length} dimension, not the 2 of a LoRA matrix`);
      continue;
    }
    const [target, side] = [match[1], match[2] as "a" | "b"];
    const transposed = side === "a" && target === "token_embd";
    halves.push(side === "b" ? { target, side, rank: shape[0], size: shape[1] } : transposed ? { target, side, rank: shape[0], size: shape[1] } : { target, side, rank: shape[1], size: shape[0] });
  }
  return { halves, problems };
}

/** `model.layers.3.self_attn.q_proj` → layer 3, `self_attn.q_proj`; `lm_head` → no layer, `lm_head`. */
function locate(target: string): { layer?: number; module: string } {
  const parts = target.split(".");
  const at = parts.findIndex((part) => /^\d+$/.test(part));
  if (at < 0) return { module: parts.at(-1)! };
  return { layer: Number(parts[at]), module: parts.slice(at + 1).filter((part) => !/^\d+$/.test(part)).join(".") };
}

/** Pairs the halves into modules, grouped by name and shape; every A needs its B of the same rank. */
export function loraModules({ halves, problems }: { halves: Half[]; problems: string[] }): LoraModules | { problems: string[] } {
  const pairs = new Map<string, { a?: Half; b?: Half }>();
  for (const half of halves) {
    const pair = pairs.get(half.target) ?? {};
    pair[half.side] = half;
    pairs.set(half.target, pair);
  }
  const groups = new Map<string, AdapterModule>();
  let layers = 0;
  let rank = 0;
  for (const [target, { a, b }] of pairs) {
    if (!a || !b) {
      problems.push(`${target} has its LoRA ${a ? "A" : "B"} without its ${a ? "B" : "A"}`);
      continue;
    }
    if (a.rank !== b.rank) {
      problems.push(`${target}: its A has rank ${a.rank}, its B ${b.rank}`);
      continue;
    }
    const { layer, module } = locate(target);
    const key = `${module}|${a.size}|${b.size}|${a.rank}`;
    const group = groups.get(key) ?? { name: module, inFeatures: a.size, outFeatures: b.size, rank: a.rank, layers: 0 };
    if (layer !== undefined) {
      group.layers++;
      layers = Math.max(layers, layer + 1);
    }
    rank = Math.max(rank, a.rank);
    groups.set(key, group);
  }
  if (problems.length > 0) return { problems };
  return { modules: [...groups.values()], layers, rank };
}
