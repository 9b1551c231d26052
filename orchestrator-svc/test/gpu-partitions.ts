import type { GpuPartition } from "@svc/contracts";

const MiB = 2 ** 20;

/** A GPU partition as profile-svc reports it, with the memory nvidia-smi gives each card. */
export function gpuPartition(name: string, gpuType: string, memoryMiB: number, gpusPerNode: number, nodes: number, extra: Partial<GpuPartition> = {}): GpuPartition {
  return { name, default: false, nodes, gpusPerNode, gpuType, gpuMemoryBytes: memoryMiB * MiB, gpuMemorySource: "table", cpusPerNode: 64, memoryBytesPerNode: 512e9, timeLimit: null, ...extra };
}

/** The four GPU sizes issue 29 names: A100 40GB (8 a node), A40 48GB (4 a node, as Vector Institute's vec-inf cluster), H100 80GB and H200 141GB (8 a node). */
export const GPUS = {
  40: gpuPartition("a100-40", "a100", 40960, 8, 4),
  48: gpuPartition("a40", "a40", 46068, 4, 8),
  80: gpuPartition("h100", "h100", 81559, 8, 4),
  141: gpuPartition("h200", "h200", 143771, 8, 2),
} as const;
