import type { ClusterGpus, GpuPartition } from "@svc/contracts";
import { formatBytes } from "@svc/contracts/format-bytes";
import { formatTable } from "../../output/table";

const gpus = (partition: GpuPartition) => (partition.gpusPerNode === 0 ? "0" : `${partition.gpusPerNode} × ${partition.gpuType ?? "gpu"}`);

function gpuMemory(partition: GpuPartition): string {
  if (partition.gpusPerNode === 0) return "-";
  if (partition.gpuMemoryBytes === null) return "unknown (set gpu_memory)";
  return `${formatBytes(partition.gpuMemoryBytes)} (${partition.gpuMemorySource})`;
}

/** `svc profile show`'s partitions: one row each (the default marked `*`, as sinfo does), then their notes. */
export function describePartitions(cluster: ClusterGpus): string {
  const rows = cluster.partitions.map((p) => [
    `${p.name}${p.default ? "*" : ""}`,
    p.nodes,
    gpus(p),
    gpuMemory(p),
    p.cpusPerNode,
    formatBytes(p.memoryBytesPerNode),
    p.timeLimit ?? "-",
  ]);
  const table = formatTable(["partition", "nodes", "gpus/node", "gpu memory", "cpus/node", "memory/node", "time limit"], rows);
  const notes = cluster.partitions.filter((p) => p.note).map((p) => `  ${p.name}: ${p.note}`);
  const when = new Date(cluster.checkedAt).toISOString().replace("T", " ").slice(0, 16);
  return [`Partitions (read ${when} UTC; --refresh reads again):`, table, ...(notes.length > 0 ? ["Notes:", ...notes] : [])].join("\n");
}
