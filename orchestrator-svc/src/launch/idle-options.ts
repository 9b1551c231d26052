import { SLURM_ONLY_JOB_OPTIONS, type InferenceServer, type JobOptions, type Profile, type RunRequest } from "@svc/contracts";
import type { EngineCapabilities } from "../engines/engine";

const list = (names: string[]) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);
const doNot = (names: string[]) => (names.length === 1 ? "does" : "do");

/**
 * Warnings for options that were given but do nothing where the service runs, each option named:
 * Slurm's job options on a local profile (Docker), the GPU options on the CPU runtime, and --image
 * on a bare Slurm job (which runs the svc runtime, not an image).
 */
export function idleOptionWarnings(request: RunRequest, job: JobOptions, profile: Profile, server: InferenceServer, capabilities: Pick<EngineCapabilities, "slurmJobOptions" | "runsImages">): string[] {
  const warnings: string[] = [];
  if (!capabilities.slurmJobOptions) {
    const given = SLURM_ONLY_JOB_OPTIONS.filter(([, field]) => job[field] !== undefined).map(([option]) => option);
    if (given.length > 0) {
      warnings.push(`${list(given)} ${doNot(given)} nothing on local profile ${profile.name}: ${given.length === 1 ? "it is a Slurm job option" : "they are Slurm job options"}, and Docker runs this service (it honours --mem and --gres).`);
    }
  }
  const text = request.textGeneration ?? {};
  if (request.task === "text-generation" && server === "svc") {
    const given = [...(text.disableCustomKernels !== undefined ? ["--disable-custom-kernels"] : []), ...(text.sharded !== undefined ? ["--sharded"] : [])];
    if (given.length > 0) warnings.push(`${list(given)} ${doNot(given)} nothing on the CPU runtime: ${given.length === 1 ? "it applies" : "they apply"} to GPU engines (vLLM, with --gres 1 or more).`);
  }
  if (request.image !== undefined && !capabilities.runsImages) {
    warnings.push(`--image does nothing on slurm profile ${profile.name}: its jobs run the svc runtime itself (runtime = bare); an image is used with runtime = apptainer.`);
  }
  return warnings;
}

/** The job options of a run on `profile`: a slurm profile's defaults (account, partition, qos) unless the run gives its own. */
export function jobWithProfileDefaults(job: JobOptions, profile: Profile, capabilities: Pick<EngineCapabilities, "slurmJobOptions">): JobOptions {
  if (!capabilities.slurmJobOptions) return job;
  const given = profile as Partial<Record<"account" | "partition" | "qos", string>>;
  const defaults = Object.fromEntries(
    (["account", "partition", "qos"] as const).filter((key) => given[key] !== undefined && job[key] === undefined).map((key) => [key, given[key]]),
  );
  return { ...defaults, ...job };
}
