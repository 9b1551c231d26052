import { gpuTypeMemory, parseGpuMemorySetting, settingFor, type ClusterGpus, type GpuPartition, type Profile } from "@svc/contracts";
import type { GpuGres, SlurmNode, SlurmPartition } from "./scontrol";

/**
 * A profile's GPUs as read from the cluster (or this machine), before GPU memory is decided: that
 * depends on the profile's `gpu_memory`, which may change without a new read. This is what the
 * cache keeps.
 */
export interface ReadPartition extends Omit<GpuPartition, "gpuMemoryBytes" | "gpuMemorySource" | "note"> {
  /** What the device itself reports (a local profile's nvidia-smi). */
  deviceMemoryBytes?: number;
  notes: string[];
}

export interface GpuReading {
  source: ClusterGpus["source"];
  checkedAt: string;
  partitions: ReadPartition[];
}

const MIB = 1024 ** 2;
/** A type's memory for choosing the smallest; an unknown type counts as the smallest (nothing is assumed of it). */
const knownMemory = (type: string | null) => (type === null ? 0 : (gpuTypeMemory(type)?.memoryBytes ?? 0));
const byLeastMemory = (a: string | null, b: string | null) => knownMemory(a) - knownMemory(b);

/** One node's GPUs as one count and type: several types on a node count together, under the one with the least memory. */
function nodeGpus(gpus: GpuGres[]): { count: number; type: string | null; types: Array<string | null> } {
  const types = [...new Set(gpus.map((gpu) => gpu.type))].sort(byLeastMemory);
  return { count: gpus.reduce((sum, gpu) => sum + gpu.count, 0), type: types[0] ?? null, types };
}

const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;
const label = (type: string | null) => type ?? "untyped";

/**
 * A partition from its nodes: the GPU nodes when it has any (the others cannot take a GPU job),
 * with the smallest GPU count, CPUs and memory among them, and notes where nodes differ.
 */
export function partitionFromNodes(partition: SlurmPartition, members: SlurmNode[]): ReadPartition {
  const gpuNodes = members.filter((node) => nodeGpus(node.gpus).count > 0);
  const counted = gpuNodes.length > 0 ? gpuNodes : members;
  const notes: string[] = [];
  if (gpuNodes.length > 0 && gpuNodes.length < members.length) {
    notes.push(`${gpuNodes.length} of its ${members.length} nodes have GPUs; the figures are theirs`);
  }
  const gpus = counted.map((node) => nodeGpus(node.gpus));
  const counts = gpus.map((node) => node.count);
  if (gpuNodes.length > 0 && new Set(counts).size > 1) notes.push(`GPUs per node differ (${range(counts)}): the smallest count is shown`);
  const types = [...new Set(gpus.flatMap((node) => node.types))].sort(byLeastMemory);
  if (types.length > 1) {
    const perType = types.map((type) => `${label(type)} on ${gpus.filter((node) => node.types.includes(type)).length}`).join(", ");
    notes.push(`GPU types differ (${perType} nodes): the one with the least memory is shown`);
  }
  const cpus = counted.map((node) => node.cpus);
  const memory = counted.map((node) => node.memoryMb);
  return {
    name: partition.name,
    default: partition.default,
    nodes: counted.length > 0 ? counted.length : partition.totalNodes,
    gpusPerNode: gpuNodes.length > 0 ? Math.min(...counts) : 0,
    gpuType: gpuNodes.length > 0 ? (types[0] ?? null) : null,
    cpusPerNode: cpus.length > 0 ? Math.min(...cpus) : 0,
    memoryBytesPerNode: memory.length > 0 ? Math.min(...memory) * MIB : 0,
    timeLimit: partition.maxTime,
    notes,
  };
}

/** The partitions that take jobs now (State=UP), default first, each from the nodes that list it. */
export function slurmPartitions(partitions: SlurmPartition[], nodes: SlurmNode[]): ReadPartition[] {
  return partitions
    .filter((partition) => partition.state === "UP")
    .sort((a, b) => Number(b.default) - Number(a.default))
    .map((partition) => partitionFromNodes(partition, nodes.filter((node) => node.partitions.includes(partition.name))));
}

/**
 * GPU memory per partition: the profile's `gpu_memory` (it overrides everything), else what the
 * device reports, else the GPU table (or a size in the type's name), else unknown.
 */
export function resolveGpus(profile: Profile, reading: GpuReading): ClusterGpus {
  const parsed = profile.gpu_memory ? parseGpuMemorySetting(profile.gpu_memory) : undefined;
  const setting = typeof parsed === "string" ? undefined : parsed;
  const partitions = reading.partitions.map(({ deviceMemoryBytes, notes, ...partition }): GpuPartition => {
    const all = [...notes];
    let memory: Pick<GpuPartition, "gpuMemoryBytes" | "gpuMemorySource"> = { gpuMemoryBytes: null, gpuMemorySource: "unknown" };
    if (partition.gpusPerNode > 0) {
      const override = settingFor(setting, partition.gpuType);
      const table = partition.gpuType === null ? undefined : gpuTypeMemory(partition.gpuType);
      if (override !== undefined) memory = { gpuMemoryBytes: override, gpuMemorySource: "profile" };
      else if (deviceMemoryBytes !== undefined) memory = { gpuMemoryBytes: deviceMemoryBytes, gpuMemorySource: "device" };
      else if (table) {
        memory = { gpuMemoryBytes: table.memoryBytes, gpuMemorySource: "table" };
        if (!table.fromName && table.entry?.note) all.push(table.entry.note);
      } else all.push(`GPU memory unknown for ${partition.gpuType === null ? "GPUs without a type" : `type ${partition.gpuType}`}: set gpu_memory in the profile (e.g. gpu_memory = 80G)`);
    }
    return { ...partition, ...memory, ...(all.length > 0 ? { note: `${all.join("; ")}.` } : {}) };
  });
  return { profile: profile.name, source: reading.source, partitions, checkedAt: reading.checkedAt };
}
