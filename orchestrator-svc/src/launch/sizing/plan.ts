import type { GpuPartition, ModelFacts, Placement } from "@svc/contracts";
import { candidates, gpuCount, sizablePartitions, type Candidate } from "./candidates";
import { engineBudget, type EngineBudget, type SizingEngine } from "./engine-budget";
import { fits, kvBytesPerGpu, kvCacheBytes, usableBytesPerGpu, weightBytesPerGpu, type KvAsk } from "./gpu-memory";
import { sizedModel, withAdapters, type SizedModel } from "./sized-model";
import { describeGpus, gb, summaryLine, tokens } from "./summary";
import { checkUserPlacement, type GivenPlacement } from "./user-placement";

/** The KV cache a plan aims for: at least one whole context, and 8 sequences of 8,192 tokens (a chat-sized batch) where the context is shorter. */
export const TARGET_CONCURRENT_TOKENS = 8 * 8192;
/** vLLM's default --max-num-seqs: more sequences than this never run at once. */
export const MAX_SEQUENCES = 256;
/** A lowered context is a multiple of this (vLLM's and SGLang's KV blocks divide it). */
export const CONTEXT_STEP = 256;
/** The least context a plan lowers to before it takes more nodes: weights that leave less room than this need a larger placement. */
export const MIN_CONTEXT = 4096;
/** The context a model's files do not give: sized for this, and said so. */
export const UNKNOWN_CONTEXT = 4096;

export interface SizingRequest {
  facts: ModelFacts | undefined;
  /** The partitions to choose from (the user's or the profile's partition alone, or all of the profile's). */
  partitions: readonly GpuPartition[];
  engine: SizingEngine;
  given: GivenPlacement;
  /** The LoRA adapters served beside the model, all at once (launch/adapters.ts): held on the GPUs like weights. */
  adapterBytes?: number;
}

export type SizingOutcome =
  | { kind: "placed"; placement: Placement; warnings: string[] }
  | { kind: "unsized"; reason: string }
  | { kind: "refused"; message: string; neededBytes: number; offeredBytes: number };

/** Sequences of `context` tokens the target asks for. */
export const targetSequences = (context: number) => Math.min(MAX_SEQUENCES, Math.max(1, Math.floor(TARGET_CONCURRENT_TOKENS / context)));

/** The most sequences of `context` (up to `wanted`) that fit; 0 when not even one does. */
export function sequencesThatFit(model: SizedModel, budget: EngineBudget, candidate: Candidate, context: number, wanted: number): number {
  let count = 0;
  while (count < wanted && fits(model, budget, candidate, { sequences: count + 1, context })) count++;
  return count;
}

/** The longest context (a multiple of CONTEXT_STEP, at most `limit`) of which one sequence fits; 0 when none does. */
export function longestContext(model: SizedModel, budget: EngineBudget, candidate: Candidate, limit: number): number {
  let low = 0;
  let high = Math.floor(limit / CONTEXT_STEP);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(model, budget, candidate, { sequences: 1, context: middle * CONTEXT_STEP })) low = middle;
    else high = middle - 1;
  }
  return low * CONTEXT_STEP;
}

/** The Placement record of `candidate` holding `ask`. */
export function placementOf(model: SizedModel, budget: EngineBudget, candidate: Candidate, ask: KvAsk, source: Placement["source"], reasons: string[], loweredFrom?: number): Placement {
  const kv = kvCacheBytes(model, ask);
  return {
    summary: summaryLine({ bytes: model.weightBytes - model.adapterBytes, label: model.weightLabel, visionBytes: model.visionBytes, adapterBytes: model.adapterBytes }, { bytes: kv, ask, loweredFrom }, candidate),
    partition: candidate.partition.name,
    gpuType: candidate.partition.gpuType,
    nodes: candidate.nodes,
    gpusPerNode: candidate.gpusPerNode,
    tensorParallel: candidate.tp,
    pipelineParallel: candidate.pp,
    maxModelLen: ask.context,
    concurrency: ask.sequences,
    memory: {
      weightBytes: Math.round(model.weightBytes - model.adapterBytes),
      ...(model.visionBytes > 0 ? { visionTowerBytes: Math.round(model.visionBytes) } : {}),
      ...(model.adapterBytes ? { adapterBytes: Math.round(model.adapterBytes) } : {}),
      kvCacheBytes: Math.round(kv),
      overheadBytes: budget.overheadBytes * gpuCount(candidate),
      usableBytesPerGpu: usableBytesPerGpu(budget, candidate),
    },
    source,
    reasons,
  };
}

/** What the busiest GPU of `candidate` needs against what it offers, for reasons and warnings. */
export function perGpuNeed(model: SizedModel, budget: EngineBudget, candidate: Candidate, ask: KvAsk): string {
  const need = weightBytesPerGpu(model, candidate) + kvBytesPerGpu(model, candidate, ask) + budget.overheadBytes;
  return `${describeGpus(candidate)} offers ${gb(usableBytesPerGpu(budget, candidate))} a GPU (${budget.describe(candidate.gpuBytes, candidate.tp * candidate.pp)}) and would need ${gb(need)} a GPU`;
}

/**
 * The placement of a GPU text-generation launch (issue 29; docs/gpu-sizing.md): the user's own
 * (--gres, --nodes, tensor/pipeline parallel engine arguments) checked and warned about, else the
 * cheapest placement on the partitions that holds the weights, the engine's overhead and one
 * sequence of the whole context. Nodes are added for the weights only: where the whole context fits
 * only on more nodes than the weights need, the context is lowered instead. Nothing fits: refused
 * with what is needed and what the largest placement offers.
 */
export function planPlacement(request: SizingRequest): SizingOutcome {
  const { given } = request;
  const sized = sizedModel(request.facts, given.kvCacheDtypeBytes ?? 2);
  if ("unknown" in sized) return { kind: "unsized", reason: sized.unknown };
  const model = withAdapters(sized, request.adapterBytes ?? 0);
  const budget = engineBudget(request.engine, given.utilisation);
  const notes: string[] = [];
  const context = given.maxModelLen ?? model.contextLength ?? UNKNOWN_CONTEXT;
  if (given.maxModelLen === undefined && model.contextLength === undefined) notes.push(`The model's config.json gives no context length: sized for ${tokens(UNKNOWN_CONTEXT)} tokens.`);
  const partitions = sizablePartitions(request.partitions);
  if (given.gres !== undefined || given.nodes !== undefined || given.tensorParallel !== undefined || given.pipelineParallel !== undefined) {
    return checkUserPlacement(model, budget, request, context, notes, () => planPlacement({ ...request, given: { ...given, gres: undefined, nodes: undefined, tensorParallel: undefined, pipelineParallel: undefined } }));
  }
  const all = candidates(model, partitions);
  const floor: KvAsk = { sequences: 1, context: Math.min(context, MIN_CONTEXT) };
  const forWeights = all.find((candidate) => fits(model, budget, candidate, floor));
  if (!forWeights) return refusal(model, budget, all, floor, request.partitions);
  const within = all.filter((candidate) => candidate.nodes <= forWeights.nodes);
  const whole = within.find((candidate) => fits(model, budget, candidate, { sequences: 1, context }));
  const smaller = (chosen: Candidate) => all.filter((candidate) => gpuCount(candidate) < gpuCount(chosen)).pop();
  const why = (chosen: Candidate, ask: KvAsk) => {
    const before = smaller(chosen);
    return before ? [`A smaller placement does not hold it: ${perGpuNeed(model, budget, before, ask)}.`] : [];
  };
  if (whole) {
    const wanted = given.maxModelLen !== undefined || model.contextLength !== undefined ? targetSequences(context) : 1;
    const sequences = sequencesThatFit(model, budget, whole, context, wanted);
    const reasons = [...notes, ...why(whole, { sequences: 1, context })];
    if (sequences < wanted) reasons.push(`The KV cache holds ${sequences} of the ${wanted} sequences of ${tokens(context)} tokens svc aims for; further requests wait their turn.`);
    return { kind: "placed", placement: placementOf(model, budget, whole, { sequences, context }, "planned", reasons), warnings: [] };
  }
  const best = within.map((candidate) => ({ candidate, longest: longestContext(model, budget, candidate, context) })).reduce((a, b) => (b.longest > a.longest ? b : a));
  const reasons = [
    ...notes,
    ...why(best.candidate, { sequences: 1, context: best.longest }),
    `The whole context of ${tokens(context)} tokens does not fit on ${describeGpus(best.candidate)}${best.candidate.nodes < all[all.length - 1].nodes ? " (svc adds nodes for the weights, not for the context)" : ""}: --max-model-len lowered to ${tokens(best.longest)}; give --max-total-tokens to choose another.`,
  ];
  return { kind: "placed", placement: placementOf(model, budget, best.candidate, { sequences: 1, context: best.longest }, "planned", reasons, context), warnings: [] };
}

/** Nothing on the profile holds the model: what it needs against what the largest placement offers. */
function refusal(model: SizedModel, budget: EngineBudget, all: Candidate[], floor: KvAsk, partitions: readonly GpuPartition[]): SizingOutcome {
  const neededBytes = model.weightBytes + kvCacheBytes(model, floor);
  const vision = model.visionBytes > 0 ? ` (of which vision tower ${gb(model.visionBytes)})` : "";
  const needs = `${gb(model.weightBytes)} of ${model.weightLabel} weights${vision} + ${gb(kvCacheBytes(model, floor))} of KV cache for ${tokens(floor.context)} tokens`;
  if (all.length === 0) {
    const known = partitions.filter((partition) => partition.gpusPerNode > 0);
    const why = known.length > 0 ? `its GPU partitions (${known.map((partition) => partition.name).join(", ")}) have GPUs of unknown memory: set gpu_memory in the profile` : "it has no partition with GPUs";
    return { kind: "refused", message: `The model needs ${needs}, and the profile offers no GPU memory to size it on: ${why}.`, neededBytes, offeredBytes: 0 };
  }
  const offer = (candidate: Candidate) => gpuCount(candidate) * Math.max(0, usableBytesPerGpu(budget, candidate) - budget.overheadBytes);
  const largest = all.reduce((a, b) => (offer(b) > offer(a) ? b : a));
  const offeredBytes = offer(largest);
  return {
    kind: "refused",
    message: `The model does not fit on this profile: it needs ${gb(neededBytes)} (${needs}); the largest placement, ${describeGpus(largest)} in partition ${largest.partition.name}, offers ${gb(offeredBytes)} (GPU memory × ${budget.describe(largest.gpuBytes, gpuCount(largest))}, less ${gb(budget.overheadBytes)} a GPU for the engine). Use a quantized variant of the model, or a profile with larger GPUs or more nodes.`,
    neededBytes,
    offeredBytes,
  };
}
