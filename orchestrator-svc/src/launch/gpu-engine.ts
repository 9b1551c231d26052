import { badRequest, DEFAULT_GPU_ENGINE, type GpuEngine, type InferenceServer, type JobOptions, type Placement, type Profile, type RunRequest } from "@svc/contracts";
import { canonicalOption, GPU_SERVERS, givenOptions } from "../engines/gpu-servers";
import { readUpstreamArgs } from "../engines/options/check";
import { optionListFor } from "../engines/options/versions";

/** The GPU engine a text-generation request asks for: --engine, else the profile's `engine`, else vLLM. */
export const gpuEngineOf = (request: RunRequest, profile: Profile): GpuEngine => request.engine ?? profile.engine ?? DEFAULT_GPU_ENGINE;

/**
 * Which server runs a text-generation request: on GPUs (--gres, or a partition with GPUs: see
 * gpu-placement.ts) the GPU engine asked for; else the CPU one. --engine without GPUs is refused:
 * SGLang and vLLM run on GPUs here.
 */
export function chooseServer(request: RunRequest, profile: Profile, onGpus: boolean, cpuTextGeneration: InferenceServer): InferenceServer {
  if (request.task !== "text-generation") {
    if (request.engine !== undefined) throw badRequest(`--engine applies to text-generation only: ${request.task} runs on svc's own runtime.`, { field: "engine" });
    return "svc";
  }
  if (onGpus) return gpuEngineOf(request, profile);
  if (request.engine !== undefined && request.engine !== cpuTextGeneration) {
    throw badRequest(`--engine ${request.engine} runs on GPUs: add --gres N (GPUs per node) or --partition with a GPU partition, or drop --engine to run on the CPU runtime.`, { field: "engine" });
  }
  return cpuTextGeneration;
}

/**
 * The placement of a GPU launch svc could not size (the model's facts or the profile's GPUs unknown)
 * but the user gave --gres/--nodes: the GPUs of each node in tensor parallel (one, with --sharded
 * false), the nodes in pipeline parallel.
 */
export function userPlacement(job: JobOptions, unsharded = false): Placement | undefined {
  const gpus = job.gres ?? 0;
  const nodes = job.nodes ?? 1;
  if (gpus === 0) return undefined;
  const tensorParallel = unsharded ? 1 : gpus;
  return {
    summary: `${nodes} × ${gpus} GPUs as asked (--nodes ${nodes} --gres ${gpus}): tensor parallel ${tensorParallel}${nodes > 1 ? `, pipeline parallel ${nodes}` : ""}`,
    partition: job.partition ?? null,
    gpuType: null,
    nodes,
    gpusPerNode: gpus,
    tensorParallel,
    pipelineParallel: nodes,
    maxModelLen: null,
    concurrency: 1,
    memory: { weightBytes: 0, kvCacheBytes: 0, overheadBytes: 0, usableBytesPerGpu: 0 },
    source: "user",
    reasons: [],
  };
}

/**
 * Engine arguments checked against the options of the engine's version where it runs (`version`:
 * given with --engine-version or found there; without one, the pinned version's; see
 * engines/options/versions.ts for a version svc has no list for): a misspelt or unknown option is
 * refused with the nearest real one. svc's own options (where it listens, what it serves, its key, a
 * multi-node group's rendezvous) are refused; parallel sizes the placement sets may be given again:
 * the user's win, with a warning. With `--image` and no version known the server is another build,
 * perhaps another version: its arguments pass unchecked, with a warning.
 */
export function checkGpuEngineArgs(engine: GpuEngine, args: readonly string[], placement: Placement | undefined, ownImage: boolean, version?: string): string[] {
  const server = GPU_SERVERS[engine];
  const given = givenOptions(engine, args);
  const reserved = server.reserved.filter((option) => given.has(option));
  if (reserved.length > 0) {
    throw badRequest(`engine argument ${reserved[0]}: svc sets it itself for ${server.label} (where it listens, the model it serves, its key, the nodes' rendezvous). Use svc run's own options instead.`, { field: "engineArgs" });
  }
  if (ownImage && version === undefined) {
    return args.length > 0 ? [`--image: the ${server.label} arguments are not checked (svc could not read your image's ${server.label} version; give it with --engine-version to have them checked).`] : [];
  }
  const chosen = optionListFor(engine, version);
  const { list } = chosen;
  const { problems } = readUpstreamArgs(args, list);
  const against = chosen.version === list.version ? `${server.label} ${list.version}` : `${server.label} ${list.version} (for ${chosen.version})`;
  if (problems.length > 0) {
    throw badRequest(`${problems.join(" ")} (svc checks ${server.label} arguments against the options of ${against}, the version it runs.)`, { field: "engineArgs", engine, version: list.version, engineVersion: chosen.version });
  }
  const warnings: string[] = chosen.warning && args.length > 0 ? [chosen.warning] : [];
  const sizes = [
    [server.tensorParallel, placement?.tensorParallel],
    [server.pipelineParallel, placement?.pipelineParallel],
  ] as const;
  for (const [option, planned] of sizes) {
    if (planned !== undefined && given.has(canonicalOption(engine, option))) warnings.push(`${option} from your engine arguments replaces the placement's ${planned}: yours is used.`);
  }
  return warnings;
}
