import { join } from "node:path";
import { badRequest, profileFolders, type ClusterGpus, type EngineVersionCheck, type GpuEngine, type InferenceServer, type JobOptions, type Model, type Placement, type Profile, type RunRequest, type Task } from "@svc/contracts";
import type { EngineCapabilities, Mount } from "../engines/engine";
import { adapterArgs, adapterMemoryBytes, adapterMounts, chooseAdapters, type ServedAdapter } from "./adapters";
import { checkDataPath, type ProtectedPlace } from "./data-paths";
import { checkCpuEngineArgs } from "./engine-args";
import { checkGpuEngineArgs, chooseServer, gpuEngineOf, userPlacement } from "./gpu-engine";
import { launchEngineVersion } from "./engine-version";
import type { FoundVersion } from "../engines/versions/probe";
import { spellForVersion } from "./respell";
import { optionListFor } from "../engines/options/versions";
import { gpuLaunch } from "./gpu-placement";
import { idleOptionWarnings, jobWithProfileDefaults } from "./idle-options";
import { checkMounts } from "./mounts";
import { chooseModel } from "./model-choice";
import { serverArgs } from "./server-args";
import { validateRunRequest } from "./validate-request";

export interface PlannerDeps {
  /** The profile by name (throws a 4xx ApiError when there is none). */
  profile(name: string): Promise<Profile>;
  /** Registry rows of `repo` on `profile` (without `repo`: all of the profile's). */
  models(profile: string, repo?: string): Promise<Model[]>;
  /** The container image that serves `task` with this inference server. */
  image(task: Task, server: InferenceServer): string;
  /** Which text-generation server to use without GPUs (`svc`, or `vllm` when configured). */
  cpuTextGeneration: InferenceServer;
  /** What the engine that runs `profile`'s services can do, and how it judges paths (see EngineCapabilities). */
  capabilities(profile: Profile): EngineCapabilities;
  /** Places on this machine no job may see: svc's own files, the Docker socket's folder (see data-paths.ts). */
  protectedPlaces: readonly ProtectedPlace[];
  /** Whether an image is one of the project's own runtimes (whose engine options svc knows), by name or by its label. */
  isProjectRuntime(image: string): Promise<boolean>;
  /** The GPUs `profile`'s services can get (profile-svc's GET /api/profiles/{name}/gpus); null when they cannot be read. */
  gpus(profile: Profile): Promise<ClusterGpus | null>;
  /** The version of `engine` where `profile` runs it from `image` (read there, cached); null when it cannot be read. */
  engineVersion?(profile: Profile, engine: GpuEngine, image: string): Promise<FoundVersion | null>;
}

export interface LaunchPlan {
  profile: Profile;
  model: Model;
  matched: number;
  warnings: string[];
  server: InferenceServer;
  image: string;
  args: string[];
  /** Speech recognition: the folder `audio_path` is resolved in; default `<home>/inputs`. */
  inputDir?: string;
  /** The run's job options with the profile's defaults filled in. */
  job: JobOptions;
  mounts: Mount[];
  /** What the engine that will run it can do (see EngineCapabilities). */
  capabilities: EngineCapabilities;
  /** A GPU launch: where it runs and why (launch/sizing/). */
  placement?: Placement;
  /** `--adapter`s served on the model (checked against it). */
  adapters: ServedAdapter[];
  /** A GPU launch: its engine's version and the option list its arguments were checked against. */
  engineVersion?: EngineVersionCheck;
}

/** svc's own options of a GPU launch as the version its arguments were checked against spells them (the user's come last, as they are). */
function ownOptionsForVersion(server: GpuEngine, built: { args: string[]; warnings: string[] }, request: RunRequest, version: string | null) {
  const spelled = spellForVersion(server, built.args, built.args.length - (request.engineArgs?.length ?? 0), optionListFor(server, version ?? undefined).list);
  return { args: spelled.args, warnings: [...built.warnings, ...spelled.warnings] };
}

/** Turns a run request into what to launch on which profile, or a 4xx error saying what to fix. */
export async function planLaunch(request: RunRequest, deps: PlannerDeps, defaultProfile: string): Promise<LaunchPlan> {
  validateRunRequest(request);
  const profile = await deps.profile(request.profile ?? defaultProfile);
  const rows = await deps.models(profile.name, request.model);
  // Only for the message when the model is not there: which registered models it may mean (an adapter is not one to run).
  const registered = rows.length === 0 ? (await deps.models(profile.name)).filter((row) => !row.adapter).map((row) => row.repo) : [];
  const choice = chooseModel(rows, request.model, request.task, profile.name, request.revision, registered);
  const capabilities = deps.capabilities(profile);
  const withDefaults = jobWithProfileDefaults(request.job ?? {}, profile, capabilities);
  const adapterBytes = request.adapters?.length ? await adapterMemoryBytes(request.adapters, (repo) => deps.models(profile.name, repo)) : 0;
  const launch =
    request.task === "text-generation"
      ? gpuLaunch(request, withDefaults, choice.model, await deps.gpus(profile), capabilities.slurmJobOptions, gpuEngineOf(request, profile), adapterBytes)
      : { gpu: false, job: withDefaults, warnings: [] };
  const server = chooseServer(request, profile, launch.gpu, deps.cpuTextGeneration);
  const image = request.image ?? deps.image(request.task, server);
  const job = launch.job;
  // Unsized (the profile's GPUs unknown, or the model's facts) but GPUs asked for: the user's --gres/--nodes as they are.
  const placement = server === "svc" ? undefined : (launch.placement ?? userPlacement(job, request.textGeneration?.sharded?.toLowerCase() === "false"));
  if ((placement?.nodes ?? job.nodes ?? 1) > 1 && !capabilities.slurmJobOptions) {
    throw badRequest(`--nodes ${placement?.nodes ?? job.nodes}: profile ${profile.name} runs services on this machine, one node. A model across nodes runs on a slurm profile.`, { field: "job.nodes" });
  }
  // Without images (a bare Slurm job) the project's runtime tree runs, whatever the image is called.
  const engineVersion = server !== "svc" ? await launchEngineVersion(request, profile, server, image, deps) : undefined;
  const engineWarnings =
    server !== "svc"
      ? checkGpuEngineArgs(server, request.engineArgs ?? [], placement, request.image !== undefined, engineVersion?.source === "pinned" ? undefined : (engineVersion?.version ?? undefined))
      : request.task === "text-generation" && (!capabilities.runsImages || (await deps.isProjectRuntime(image)))
        ? checkCpuEngineArgs(request.engineArgs ?? [])
        : [];
  const served = await chooseAdapters(request, choice.model, server, (repo) => deps.models(profile.name, repo), capabilities);
  const built = serverArgs(server, request, request.model, placement, choice.model.facts, adapterArgs(server, served.adapters, request.engineArgs ?? []));
  const { args, warnings } = server !== "svc" && engineVersion?.checkedAgainst ? ownOptionsForVersion(server, built, request, engineVersion.version) : built;
  const mounts = checkMounts(request.mounts ?? [], capabilities, deps.protectedPlaces);
  const idle = idleOptionWarnings(request, job, profile, server, capabilities);
  return {
    profile,
    model: choice.model,
    matched: choice.matched,
    warnings: [...choice.warnings, ...launch.warnings, ...served.warnings, ...warnings, ...idle, ...engineWarnings],
    server,
    image,
    args,
    job,
    capabilities,
    ...(placement ? { placement } : {}),
    ...(engineVersion ? { engineVersion } : {}),
    mounts: [...mounts, ...adapterMounts(served.adapters, choice.model, mounts)],
    adapters: served.adapters,
    inputDir:
      request.task === "speech-recognition"
        ? checkDataPath(
            request.speechRecognition?.inputDir ?? join(profileFolders(profile).home, "inputs"),
            { option: "--input-dir", field: "inputDir", access: "read", kind: "folder", mustExist: false },
            capabilities,
            deps.protectedPlaces,
          )
        : undefined,
  };
}
