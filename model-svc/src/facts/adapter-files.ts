import type { SnapshotFile } from "../discovery/types";

/** PEFT's adapter config, at the top of an adapter's snapshot. */
export const ADAPTER_CONFIG = "adapter_config.json";
/** PEFT's adapter weights, in the order svc prefers them (only safetensors headers are read). */
const PEFT_WEIGHTS = ["adapter_model.safetensors", "adapter_model.bin"];
/** A model's own weights: a snapshot that has them is a model, whatever adapter files come with it. */
const MODEL_WEIGHTS = /^(model.*\.safetensors|pytorch_model.*\.bin|.*\.gguf)$/;

/**
 * Whether a snapshot is a PEFT adapter: adapter_config.json at its top and no model weights of its
 * own. `weights` is the adapter's weights file, absent when it is missing (not registered then).
 */
export function peftLayout(files: SnapshotFile[]): { weights?: string } | undefined {
  const top = new Set(files.filter((f) => !f.broken && !f.path.includes("/")).map((f) => f.path));
  if (!top.has(ADAPTER_CONFIG) || [...top].some((path) => MODEL_WEIGHTS.test(path))) return undefined;
  const weights = PEFT_WEIGHTS.find((path) => top.has(path));
  return weights ? { weights } : {};
}
