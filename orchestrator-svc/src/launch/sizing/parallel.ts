import type { SizedModel } from "./sized-model";

/**
 * Whether vLLM (and SGLang, which splits attention the same way) accepts tensor parallel size `tp`
 * for this model: the attention heads must divide evenly (vLLM's ModelConfig check "Total number of
 * attention heads must be divisible by tensor parallel size"), and the key/value heads must either
 * divide evenly or be replicated a whole number of times (QKVParallelLinear: `divide(tp, kv_heads)`
 * when tp ≥ kv heads, else `divide(kv_heads, tp)`). Heads the config does not give: powers of two.
 */
export function tensorParallelFits(model: Pick<SizedModel, "attentionHeads" | "kvHeads">, tp: number): boolean {
  const { attentionHeads: heads, kvHeads } = model;
  if (!heads) return (tp & (tp - 1)) === 0;
  if (heads % tp !== 0) return false;
  if (!kvHeads) return true;
  return kvHeads % tp === 0 || tp % kvHeads === 0;
}

/** The tensor parallel sizes from 1 to `gpus` that the model accepts, smallest first. */
export function tensorParallelSizes(model: Pick<SizedModel, "attentionHeads" | "kvHeads">, gpus: number): number[] {
  return Array.from({ length: Math.max(0, gpus) }, (_, i) => i + 1).filter((tp) => tensorParallelFits(model, tp));
}

/** Layers of the largest pipeline stage: vLLM splits the layers as evenly as it can, the remainder on some stages. */
export const stageLayers = (layers: number, pp: number) => Math.ceil(layers / pp);
