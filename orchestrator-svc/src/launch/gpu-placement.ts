import { badRequest, type ClusterGpus, type GpuEngine, type GpuPartition, type JobOptions, type Model, type Placement, type RunRequest } from "@svc/contracts";
import { givenPlacement } from "./sizing/given-placement";
import { planPlacement } from "./sizing/plan";

export interface GpuLaunch {
  /** The launch runs on GPUs (vLLM or SGLang), not on the CPU runtime. */
  gpu: boolean;
  placement?: Placement;
  /** The job options with the placement's GPUs, nodes and partition where the run gave none. */
  job: JobOptions;
  warnings: string[];
}

/** The partitions a plan may choose from: the job's partition (the run's, else the profile's) where it has GPUs, else every one. */
function searchable(gpus: ClusterGpus, request: RunRequest, job: JobOptions): GpuPartition[] {
  const named = gpus.partitions.filter((partition) => partition.name === job.partition);
  if (request.job?.partition !== undefined || named.some((partition) => partition.gpusPerNode > 0)) return named;
  return gpus.partitions;
}

/**
 * Whether a text-generation launch runs on GPUs, and where (issue 29). It does when the run asks for
 * GPUs (--gres, --nodes) or its partition (the run's, else the profile's, else the cluster's default)
 * has them; then its placement is planned from the model's facts and the profile's GPUs, or the
 * user's own checked. A CPU partition keeps the CPU runtime, as before. `slurm`: the job takes a
 * partition (a local profile's Docker host has none): the placement's, unless the run names one.
 */
export function gpuLaunch(request: RunRequest, job: JobOptions, model: Model, gpus: ClusterGpus | null, slurm: boolean, engine: GpuEngine, adapterBytes = 0): GpuLaunch {
  const asked = (request.job?.gres ?? 0) > 0 || (request.job?.nodes ?? 1) > 1;
  if (request.task !== "text-generation") return { gpu: asked, job, warnings: [] };
  const partitionName = job.partition ?? gpus?.partitions.find((partition) => partition.default)?.name;
  const partitionHasGpus = (gpus?.partitions.find((partition) => partition.name === partitionName)?.gpusPerNode ?? 0) > 0;
  if (!asked && !partitionHasGpus) return { gpu: false, job, warnings: [] };
  if (!gpus) return { gpu: true, job, warnings: [`svc cannot size this launch: the profile's GPUs are not known (its GPU partitions could not be read); it runs on the GPUs you asked for.`] };
  const outcome = planPlacement({ facts: model.facts, partitions: searchable(gpus, request, job), engine, given: givenPlacement(request), adapterBytes });
  if (outcome.kind === "refused") throw badRequest(outcome.message, { neededBytes: outcome.neededBytes, offeredBytes: outcome.offeredBytes });
  if (outcome.kind === "unsized") {
    const why = `svc cannot size ${model.repo} for GPUs: ${outcome.reason}`;
    if (request.job?.gres !== undefined) return { gpu: true, job, warnings: [`${why}; it runs on your --gres ${request.job.gres}.`] };
    throw badRequest(`${why}. Give --gres N (GPUs per node) to run it on GPUs all the same, or --partition with a CPU partition to run it on the CPU runtime.`);
  }
  const { placement } = outcome;
  return {
    gpu: true,
    placement,
    job: { ...job, gres: job.gres ?? placement.gpusPerNode, ...(slurm && placement.partition !== null ? { partition: request.job?.partition ?? placement.partition } : {}), ...(placement.nodes > 1 || job.nodes !== undefined ? { nodes: job.nodes ?? placement.nodes } : {}) },
    warnings: outcome.warnings,
  };
}
