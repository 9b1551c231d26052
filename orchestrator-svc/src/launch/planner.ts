import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { badRequest } from "@svc/platform";
import type { Model, Profile, RunRequest, Task } from "@svc/contracts";
import { DEFAULT_SLURM_RUNTIME } from "../runtimes/slurm-runtime";
import { checkCpuEngineArgs } from "./engine-args";
import { chooseModel } from "./model-choice";
import { runtimeArgs, type RuntimeKind } from "./runtime-args";
import { validateRunRequest } from "./validate-request";

export interface PlannerDeps {
  /** The profile by name (throws a 4xx ApiError when there is none). */
  profile(name: string): Promise<Profile>;
  /** Registry rows of `repo` on `profile`. */
  models(profile: string, repo: string): Promise<Model[]>;
  /** The container image (or program) that serves `task` with this kind of runtime. */
  runtimeImage(task: Task, kind: RuntimeKind): string;
  /** Which text-generation engine to use without GPUs (`svc`, or `vllm` when configured). */
  cpuTextGeneration: RuntimeKind;
  /** Whether an image is one of the project's own runtimes (whose engine options svc knows). */
  isProjectRuntime(image: string): boolean;
}

export interface LaunchPlan {
  profile: Profile;
  engine: "docker" | "slurm";
  model: Model;
  matched: number;
  warnings: string[];
  runtimeKind: RuntimeKind;
  runtime: string;
  args: string[];
  inputDir?: string;
}

/** Turns a run request into what to launch where, or a 4xx error saying what to fix. */
export async function planLaunch(request: RunRequest, deps: PlannerDeps, defaultProfile: string): Promise<LaunchPlan> {
  validateRunRequest(request);
  const profile = await deps.profile(request.profile ?? defaultProfile);
  const choice = chooseModel(await deps.models(profile.name, request.model), request.model, request.task, profile.name, request.revision);
  const gpus = request.job?.gres ?? 0;
  const runtimeKind: RuntimeKind = request.task === "text-generation" ? (gpus > 0 ? "vllm" : deps.cpuTextGeneration) : "svc";
  const runtime = deps.runtimeImage(request.task, runtimeKind);
  // A bare Slurm job always runs the project's runtime tree, whatever the image is called.
  const bareSlurm = profile.schema === "slurm" && (profile.runtime ?? DEFAULT_SLURM_RUNTIME) === "bare";
  const engineWarnings =
    request.task === "text-generation" && runtimeKind === "svc" && (bareSlurm || deps.isProjectRuntime(runtime)) ? checkCpuEngineArgs(request.engineArgs ?? []) : [];
  const { args, warnings } = runtimeArgs(runtimeKind, request, request.model);
  let inputDir: string | undefined;
  if (request.task === "speech-recognition") {
    const home = profile.schema === "local" ? profile.home_dir : profile.home;
    inputDir = request.speechRecognition?.inputDir ?? join(home, "inputs");
    if (profile.schema === "local") ensureFolder(inputDir);
  }
  return {
    profile,
    engine: profile.schema === "local" ? "docker" : "slurm",
    model: choice.model,
    matched: choice.matched,
    warnings: [...choice.warnings, ...warnings, ...engineWarnings],
    runtimeKind,
    runtime,
    args,
    inputDir,
  };
}

function ensureFolder(path: string) {
  if (!path.startsWith("/")) throw badRequest(`--input-dir ${JSON.stringify(path)}: give an absolute path.`);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw badRequest(`--input-dir ${path} cannot be created: ${(error as Error).message}`);
  }
}
