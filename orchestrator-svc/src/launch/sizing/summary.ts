import { formatDecimalBytes } from "@svc/contracts/format-bytes";
import type { GpuPartition } from "@svc/contracts";
import { GiB } from "./engine-budget";
import type { Candidate } from "./candidates";
import type { KvAsk } from "./gpu-memory";

/** Decimal gigabytes as model cards give sizes: `141 GB`, `0.8 GB`. */
export function gb(bytes: number): string {
  const value = bytes / 1e9;
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} GB`;
}

export const tokens = (count: number) => count.toLocaleString("en-US");

/** `A100-80GB`: the GRES type and the memory nvidia-smi reports, in GiB as GPU names give it. */
export function gpuName(partition: Pick<GpuPartition, "gpuType" | "gpuMemoryBytes">): string {
  const memory = partition.gpuMemoryBytes ? `-${Math.round(partition.gpuMemoryBytes / GiB)}GB` : "";
  return `${(partition.gpuType ?? "GPU").toUpperCase()}${memory}`;
}

/** `2 nodes × 4 × A100-80GB`. */
export function describeGpus(candidate: Pick<Candidate, "nodes" | "gpusPerNode" | "partition">): string {
  const gpus = `${candidate.gpusPerNode} × ${gpuName(candidate.partition)}`;
  return candidate.nodes > 1 ? `${candidate.nodes} nodes × ${gpus}` : gpus;
}

/** `tensor parallel 4 × pipeline parallel 2`; nothing for one GPU. */
export function describeParallel(tp: number, pp: number): string {
  const parts = [...(tp > 1 ? [`tensor parallel ${tp}`] : []), ...(pp > 1 ? [`pipeline parallel ${pp}`] : [])];
  return parts.join(" × ");
}

/**
 * The plan's one line: `141 GB bf16 weights + 11 GB KV (8 × 8,192 tokens) → 2 × A100-80GB, tensor parallel 2, partition gpu`;
 * a vision-language model's weights say how much is its vision tower: `4.4 GB bf16 weights (of which vision tower 1.3 GB) + …`;
 * LoRA adapters served beside the model follow the weights: `… weights + 4.10 kB LoRA adapters + …`.
 */
export function summaryLine(weights: { bytes: number; label: string; visionBytes: number; adapterBytes?: number }, kv: { bytes: number; ask: KvAsk; loweredFrom?: number }, candidate: Candidate): string {
  const lowered = kv.loweredFrom !== undefined ? `, lowered from ${tokens(kv.loweredFrom)}` : "";
  const where = [describeGpus(candidate), describeParallel(candidate.tp, candidate.pp), `partition ${candidate.partition.name}`].filter(Boolean).join(", ");
  const vision = weights.visionBytes > 0 ? ` (of which vision tower ${gb(weights.visionBytes)})` : "";
  const adapters = weights.adapterBytes ? ` + ${formatDecimalBytes(weights.adapterBytes)} LoRA adapters` : "";
  return `${gb(weights.bytes)} ${weights.label} weights${vision}${adapters} + ${gb(kv.bytes)} KV (${kv.ask.sequences} × ${tokens(kv.ask.context)} tokens${lowered}) → ${where}`;
}
