import { Type, type Static } from "@sinclair/typebox";

/**
 * The GPUs a profile's services can get (issue 29): for a slurm profile its partitions as
 * `sinfo`/`scontrol` report them (one round trip, refreshed with the profile check and on request),
 * for a local profile the Docker host's GPUs. GPU memory comes from the checked-in table of common
 * datacenter GPUs (gpu-table.ts) or the profile's `gpu_memory` override. Shared by profile-svc
 * (which reads them), orchestrator-svc (which sizes launches against them), the CLI and the UI.
 */

export const GpuPartition = Type.Object(
  {
    name: Type.String({ description: "Slurm partition (a local profile: `local`)." }),
    default: Type.Boolean({ description: "Slurm's default partition (the one a job without --partition gets)." }),
    nodes: Type.Integer({ minimum: 0, description: "Nodes in the partition." }),
    gpusPerNode: Type.Integer({ minimum: 0, description: "GPUs per node (the smallest count among its nodes)." }),
    gpuType: Type.Union([Type.String(), Type.Null()], { description: "GRES type, e.g. a100 (null: GPUs without a type, or none)." }),
    gpuMemoryBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "Memory of one GPU (null: unknown type and no `gpu_memory` in the profile)." }),
    gpuMemorySource: Type.Union([Type.Literal("table"), Type.Literal("profile"), Type.Literal("device"), Type.Literal("unknown")], {
      description: "Where gpuMemoryBytes comes from: svc's GPU table, the profile's `gpu_memory`, the device itself (local), or unknown.",
    }),
    cpusPerNode: Type.Integer({ minimum: 0 }),
    memoryBytesPerNode: Type.Integer({ minimum: 0, description: "Node memory (Slurm RealMemory)." }),
    timeLimit: Type.Union([Type.String(), Type.Null()], { description: "The partition's MaxTime as Slurm writes it (null or `UNLIMITED`: none)." }),
    note: Type.Optional(
      Type.String({ description: "What the figures leave out: nodes that differ (fewer GPUs, another type, none), or a GPU type whose memory the table gives as its smallest variant." }),
    ),
  },
  { $id: "GpuPartition" },
);
export type GpuPartition = Static<typeof GpuPartition>;

export const ClusterGpus = Type.Object(
  {
    profile: Type.String(),
    source: Type.Union([Type.Literal("slurm"), Type.Literal("docker")]),
    partitions: Type.Array(GpuPartition),
    checkedAt: Type.String({ format: "date-time", description: "When they were read from the cluster (or the Docker host)." }),
  },
  { $id: "ClusterGpus" },
);
export type ClusterGpus = Static<typeof ClusterGpus>;
