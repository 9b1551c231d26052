import { Type, type Static } from "@sinclair/typebox";

/**
 * Where and how a GPU launch runs (issue 29): the smallest placement on the profile's partitions that
 * holds the model's weights, its KV cache and the engine's overhead, computed from ModelFacts and
 * ClusterGpus by orchestrator-svc (launch/sizing/), or the user's own --gres/--nodes/--partition
 * checked against them. Part of a run's (and a dry run's) answer.
 */
export const Placement = Type.Object(
  {
    summary: Type.String({ description: "One line, e.g. `141 GB bf16 weights + 11 GB KV (8 × 8,192 tokens) → 2 × A100-80GB, tensor parallel 2, partition gpu`." }),
    partition: Type.Union([Type.String(), Type.Null()]),
    gpuType: Type.Union([Type.String(), Type.Null()]),
    nodes: Type.Integer({ minimum: 1 }),
    gpusPerNode: Type.Integer({ minimum: 0 }),
    tensorParallel: Type.Integer({ minimum: 1 }),
    pipelineParallel: Type.Integer({ minimum: 1 }),
    maxModelLen: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: "The context the engine is started with (lowered from the model's when the full one does not fit)." }),
    concurrency: Type.Integer({ minimum: 1, description: "Sequences of maxModelLen tokens the KV cache is sized for." }),
    memory: Type.Object({
      weightBytes: Type.Integer({ minimum: 0 }),
      visionTowerBytes: Type.Optional(Type.Integer({ minimum: 0, description: "A vision-language model's vision tower and projector, part of weightBytes (from the safetensors headers)." })),
      adapterBytes: Type.Optional(Type.Integer({ minimum: 0, description: "The LoRA adapters served beside the model (--adapter), all at once: their A and B matrices in 16 bits." })),
      kvCacheBytes: Type.Integer({ minimum: 0 }),
      overheadBytes: Type.Integer({ minimum: 0 }),
      usableBytesPerGpu: Type.Integer({ minimum: 0, description: "GPU memory × the engine's utilisation." }),
    }),
    source: Type.Union([Type.Literal("planned"), Type.Literal("user")], { description: "`planned`: svc chose it; `user`: --gres/--nodes/--partition given, checked only." }),
    reasons: Type.Array(Type.String(), { description: "Why this placement: what smaller ones lacked, a lowered context, a user choice that cannot fit." }),
  },
  { $id: "Placement" },
);
export type Placement = Static<typeof Placement>;
