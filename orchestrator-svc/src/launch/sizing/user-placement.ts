import type { GpuPartition } from "@svc/contracts";
import { sizablePartitions, type Candidate } from "./candidates";
import type { EngineBudget } from "./engine-budget";
import { fits, type KvAsk } from "./gpu-memory";
import { tensorParallelFits, tensorParallelSizes } from "./parallel";
import { CONTEXT_STEP, longestContext, perGpuNeed, placementOf, sequencesThatFit, targetSequences, type SizingOutcome, type SizingRequest } from "./plan";
import type { SizedModel } from "./sized-model";
import { tokens } from "./summary";

/** What the user fixed: job options and the engine's own arguments. Each given one wins over the plan. */
export interface GivenPlacement {
  gres?: number;
  nodes?: number;
  /** The job's partition: the user's --partition or the profile's. */
  partition?: string;
  tensorParallel?: number;
  pipelineParallel?: number;
  maxModelLen?: number;
  /** --gpu-memory-utilization (vLLM) or --mem-fraction-static (SGLang). */
  utilisation?: number;
  /** 1 with an fp8 KV cache (--kv-cache-dtype fp8…); default 2. */
  kvCacheDtypeBytes?: number;
  /** --sharded false: one GPU does the work however many the job has (svc's older option). */
  unsharded?: boolean;
}

/** The partition a user's placement runs in: the one named, else Slurm's default, else the first with enough GPUs. */
function userPartition(partitions: readonly GpuPartition[], given: GivenPlacement): GpuPartition | undefined {
  const sizable = sizablePartitions(partitions);
  if (given.partition !== undefined) return sizable.find((partition) => partition.name === given.partition);
  return sizable.find((partition) => partition.default) ?? sizable.find((partition) => partition.gpusPerNode >= (given.gres ?? 1)) ?? sizable[0];
}

/**
 * The user's own --gres/--nodes and tensor/pipeline parallel sizes, filled in where they left a
 * part out, and checked against the model and the partition: what cannot work is a warning (svc's
 * estimate is not a reason to refuse an explicit choice), with svc's own plan beside it. A context
 * the user did not give is lowered to what their placement holds.
 */
export function checkUserPlacement(model: SizedModel, budget: EngineBudget, request: SizingRequest, context: number, notes: string[], planned: () => SizingOutcome): SizingOutcome {
  const { given } = request;
  const partition = userPartition(request.partitions, given);
  if (!partition) {
    const where = given.partition !== undefined ? `partition ${given.partition} has no GPUs of known memory` : "the profile has no partition with GPUs of known memory";
    return { kind: "unsized", reason: where };
  }
  const nodes = given.nodes ?? 1;
  const pp = given.pipelineParallel ?? nodes;
  const widest = (gpus: number) => tensorParallelSizes(model, Math.max(1, gpus)).pop() ?? 1;
  const tp = given.tensorParallel ?? (given.unsharded ? 1 : widest(given.gres !== undefined ? Math.floor((given.gres * nodes) / pp) : partition.gpusPerNode));
  const gpusPerNode = given.gres ?? Math.ceil((tp * pp) / nodes);
  const candidate: Candidate = { partition, nodes, gpusPerNode, tp, pp, gpuBytes: partition.gpuMemoryBytes! };
  const warnings: string[] = [];
  if (!tensorParallelFits(model, tp)) {
    warnings.push(`Tensor parallel ${tp} does not divide the model's ${model.attentionHeads} attention heads and ${model.kvHeads} key/value heads evenly: the engine refuses it. Sizes it accepts: ${tensorParallelSizes(model, 64).join(", ")}.`);
  }
  if (tp * pp > nodes * gpusPerNode) warnings.push(`Tensor parallel ${tp} × pipeline parallel ${pp} needs ${tp * pp} GPUs, and the job has ${nodes * gpusPerNode} (--gres ${gpusPerNode}${nodes > 1 ? ` on ${nodes} nodes` : ""}).`);
  if (pp > model.layers) warnings.push(`Pipeline parallel ${pp} is more than the model's ${model.layers} layers.`);
  if (gpusPerNode > partition.gpusPerNode) warnings.push(`Partition ${partition.name} has ${partition.gpusPerNode} GPUs a node, and the job asks for ${gpusPerNode}: it will wait in the queue forever.`);
  if (nodes > partition.nodes) warnings.push(`Partition ${partition.name} has ${partition.nodes} nodes, and the job asks for ${nodes}.`);
  const reasons = [...notes, `Your placement (${[given.gres !== undefined ? `--gres ${given.gres}` : "", given.nodes !== undefined ? `--nodes ${given.nodes}` : "", given.tensorParallel !== undefined ? `tensor parallel ${given.tensorParallel}` : "", given.pipelineParallel !== undefined ? `pipeline parallel ${given.pipelineParallel}` : ""].filter(Boolean).join(", ")}): svc checked it, not chose it.`];
  let ask: KvAsk = { sequences: 1, context };
  let loweredFrom: number | undefined;
  if (!fits(model, budget, candidate, ask)) {
    const longest = given.maxModelLen === undefined ? longestContext(model, budget, candidate, context) : 0;
    if (longest >= CONTEXT_STEP) {
      reasons.push(`The whole context of ${tokens(context)} tokens does not fit on your placement: --max-model-len lowered to ${tokens(longest)}.`);
      ask = { sequences: 1, context: longest };
      loweredFrom = context;
    } else {
      const plan = planned();
      const instead = plan.kind === "placed" ? ` svc's plan: ${plan.placement.summary}.` : plan.kind === "refused" ? ` ${plan.message}` : "";
      warnings.push(`Your placement likely cannot hold the model (${tokens(context)} tokens of context): ${perGpuNeed(model, budget, candidate, ask)}; the engine will likely run out of memory at start.${instead}`);
    }
  }
  ask = { ...ask, sequences: Math.max(1, sequencesThatFit(model, budget, candidate, ask.context, targetSequences(ask.context))) };
  return { kind: "placed", placement: placementOf(model, budget, candidate, ask, "user", [...reasons, ...warnings], loweredFrom), warnings };
}
