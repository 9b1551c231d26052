import type { GpuPartition } from "@svc/contracts";
import type { Split } from "./gpu-memory";
import { tensorParallelSizes } from "./parallel";
import type { SizedModel } from "./sized-model";

/** A placement svc may choose: `nodes` nodes of `partition`, `gpusPerNode` GPUs on each, tensor × pipeline parallel. */
export interface Candidate extends Split {
  partition: GpuPartition;
  nodes: number;
  gpusPerNode: number;
}

export const gpuCount = (candidate: Pick<Candidate, "nodes" | "gpusPerNode">) => candidate.nodes * candidate.gpusPerNode;

/** Partitions a GPU launch can be sized on: GPUs, nodes and a known GPU memory. */
export const sizablePartitions = (partitions: readonly GpuPartition[]) =>
  partitions.filter((partition) => partition.gpusPerNode > 0 && partition.nodes > 0 && partition.gpuMemoryBytes !== null && partition.gpuMemoryBytes > 0);

/**
 * Every placement of the model on the partitions, cheapest first: fewest GPUs, then fewest nodes,
 * then the smallest GPUs, then Slurm's default partition. One node: tensor parallel over any size the
 * heads allow. Several nodes: pipeline parallel, one stage per node (at most one per layer), each
 * stage tensor parallel over the largest size a node's GPUs and the heads allow, as vLLM's
 * distributed-serving guide sets it (TP = GPUs per node, PP = nodes).
 */
export function candidates(model: SizedModel, partitions: readonly GpuPartition[]): Candidate[] {
  const all: Candidate[] = [];
  for (const partition of sizablePartitions(partitions)) {
    const gpuBytes = partition.gpuMemoryBytes!;
    const sizes = tensorParallelSizes(model, partition.gpusPerNode);
    for (const tp of sizes) all.push({ partition, nodes: 1, gpusPerNode: tp, tp, pp: 1, gpuBytes });
    const widest = sizes[sizes.length - 1];
    for (let nodes = 2; nodes <= Math.min(partition.nodes, model.layers); nodes++) all.push({ partition, nodes, gpusPerNode: widest, tp: widest, pp: nodes, gpuBytes });
  }
  return all.sort(
    (a, b) => gpuCount(a) - gpuCount(b) || a.nodes - b.nodes || a.gpuBytes - b.gpuBytes || Number(b.partition.default) - Number(a.partition.default) || a.partition.name.localeCompare(b.partition.name),
  );
}
