/**
 * The vision tower's tensors of a vision-language checkpoint, derived from its config.json's
 * `vision_config` as the family's transformers checkpoint names and shapes them (Qwen2-VL:
 * `visual.`, a patch embedding, `depth` blocks and the merger that projects into the language model).
 */
import type { TensorSpec } from "./real-model-tensors";

type Config = Record<string, any>;

const bf16 = (name: string, ...shape: number[]): TensorSpec => ({ name, shape, dtype: "BF16" });
const linear = (name: string, out: number, inp: number) => [bf16(`${name}.weight`, out, inp), bf16(`${name}.bias`, out)];
const layerNorm = (name: string, size: number) => [bf16(`${name}.weight`, size), bf16(`${name}.bias`, size)];

function qwen2VlVisual(vision: Config, textHidden: number): TensorSpec[] {
  const { embed_dim: dim, depth, mlp_ratio: ratio, in_chans: channels, patch_size: patch, temporal_patch_size: temporal, spatial_merge_size: merge } = vision;
  const tensors = [bf16("visual.patch_embed.proj.weight", dim, channels, temporal, patch, patch)];
  for (let block = 0; block < depth; block++) {
    const prefix = `visual.blocks.${block}`;
    tensors.push(...layerNorm(`${prefix}.norm1`, dim), ...layerNorm(`${prefix}.norm2`, dim));
    tensors.push(...linear(`${prefix}.attn.qkv`, 3 * dim, dim), ...linear(`${prefix}.attn.proj`, dim, dim));
    tensors.push(...linear(`${prefix}.mlp.fc1`, dim * ratio, dim), ...linear(`${prefix}.mlp.fc2`, dim, dim * ratio));
  }
  const merged = dim * merge * merge;
  tensors.push(...layerNorm("visual.merger.ln_q", dim), ...linear("visual.merger.mlp.0", merged, merged), ...linear("visual.merger.mlp.2", textHidden, merged));
  return tensors;
}

/** The vision tower's tensors; none for a config without one. */
export function visionTowerTensors(config: Config): TensorSpec[] {
  if (!config.vision_config) return [];
  if (config.model_type === "qwen2_vl") return qwen2VlVisual(config.vision_config, config.hidden_size);
  throw new Error(`no vision tower layout for model_type ${config.model_type}`);
}
