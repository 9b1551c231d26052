import { realpathSync, statSync } from "node:fs";
import { isAbsolute, posix } from "node:path";
import { badRequest, batchParamsProblem, BATCH_TASK_MODEL, batchTasksFor, DEFAULT_PROFILE, profileFolders, type BatchRunRequest, type JobOptions, type Profile, type RunRequest } from "@svc/contracts";
import type { BatchLaunch, EngineCapabilities, Mount } from "../engines/engine";
import { checkDataPath, type DataPathUse, type ProtectedPlace } from "../launch/data-paths";
import { checkContainerPlace } from "../launch/mounts";
import { planLaunch, type LaunchPlan, type PlannerDeps } from "../launch/planner";
import { asBatchAdapterRefusal, batchAdapterOf, checkAdapterTask } from "./batch-adapter";

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_IDLE_TIMEOUT_S = 120;

/** What a batch row's `spec` column holds: the request's folders and options as checked, and the launch. */
export interface StoredBatchSpec {
  inputDir?: string;
  outputDir?: string;
  input?: string;
  output?: string;
  /** task openai from an upload: the requests file on svc's machine that was copied to `input`. */
  upload?: string;
  params: Record<string, string | number | boolean>;
  inputExt?: string[];
  concurrency: number;
  idleTimeout: number;
  job: JobOptions;
  textGeneration?: RunRequest["textGeneration"];
  /** The LoRA adapter every request names (its weights are in `launch.args`); the job's model is its base. */
  adapter?: string;
  /** What the runtime's container sees besides the model (an adapter's folder). */
  launch: { image: string; args: string[]; modelDir: string; mounts?: Mount[] };
}

export interface BatchPlan {
  plan: LaunchPlan;
  stored: StoredBatchSpec;
}

/** The job's state folder: `<output dir>/.svc-batch`, or `.<results file>.svc-batch` beside the results file (as the driver's default). */
export function stateDirOf(task: BatchRunRequest["task"], stored: Pick<StoredBatchSpec, "outputDir" | "output">): string {
  if (task !== "openai") return posix.join(stored.outputDir!, ".svc-batch");
  return posix.join(posix.dirname(stored.output!), `.${posix.basename(stored.output!)}.svc-batch`);
}

/** What the engine launches for a batch job: the driver's arguments and the folders it reads and writes. */
export function batchLaunch(task: BatchRunRequest["task"], stored: StoredBatchSpec, retryFailed: boolean): BatchLaunch {
  const stateDir = stateDirOf(task, stored);
  const folders =
    task === "openai"
      ? ["--input", stored.input!, "--output", stored.output!]
      : ["--input-dir", stored.inputDir!, "--output-dir", stored.outputDir!, ...(stored.inputExt ? ["--input-ext", stored.inputExt.join(",")] : [])];
  const args = [
    "--task",
    task,
    ...folders,
    "--state-dir",
    stateDir,
    "--concurrency",
    String(stored.concurrency),
    "--idle-timeout",
    String(stored.idleTimeout),
    ...(Object.keys(stored.params).length ? ["--params", JSON.stringify(stored.params)] : []),
    ...(stored.adapter ? ["--model", stored.adapter] : []),
    ...(retryFailed ? ["--retry-failed"] : []),
  ];
  return {
    args,
    reads: [task === "openai" ? stored.input! : stored.inputDir!],
    writes: [task === "openai" ? posix.dirname(stored.output!) : stored.outputDir!],
    stateDir,
  };
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder.replace(/\/+$/, "")}/`);

/**
 * The folders (or files) of a request, each held to the data-path rule (inputs read, outputs
 * written; on this machine the inputs must be there). On this machine each is bound into the
 * job's container at its own path, so it must not hide what the container needs itself.
 */
function checkPaths(request: BatchRunRequest, capabilities: EngineCapabilities, protectedHere: readonly ProtectedPlace[], staging: Staging) {
  const check = (given: string, use: Omit<DataPathUse, "mustExist">, mustExist = use.access === "read") => {
    const path = checkDataPath(given, { ...use, mustExist }, capabilities, protectedHere);
    if (capabilities.dataPaths === "this-machine") checkContainerPlace(path, given, use.option, use.field);
    return path;
  };
  if (request.upload !== undefined) {
    if (request.task !== "openai") throw badRequest(`upload is for task openai (an OpenAI batch file), not ${request.task}.`, { field: "upload" });
    if (request.input || request.output) throw badRequest("Give upload, or input and output: not both.", { field: "upload" });
    const upload = checkUpload(request.upload, staging.uploadsDir);
    const folder = posix.join(staging.home, "batches", staging.id);
    // Not there yet: the job's run copies the upload to it.
    const input = check(posix.join(folder, "requests.jsonl"), { option: "upload", field: "upload", access: "read", kind: "file" }, false);
    const output = check(posix.join(folder, "results.jsonl"), { option: "upload", field: "upload", access: "write", kind: "file" });
    return { input, output, upload };
  }
  if (request.task === "openai") {
    if (!request.input || !request.output) throw badRequest("task openai needs --input <requests.jsonl> and --output <results.jsonl>.", { field: "input" });
    if (request.inputDir || request.outputDir) throw badRequest("task openai takes --input and --output (files), not --input-dir and --output-dir.", { field: "inputDir" });
    const input = check(request.input, { option: "--input", field: "input", access: "read", kind: "file" });
    const output = check(request.output, { option: "--output", field: "output", access: "write", kind: "file" });
    if (input === output) throw badRequest("--output must be another file than --input.", { field: "output" });
    return { input, output };
  }
  if (!request.inputDir || !request.outputDir) throw badRequest(`task ${request.task} needs --input-dir and --output-dir.`, { field: "inputDir" });
  if (request.input || request.output) throw badRequest(`--input and --output are for task openai (an OpenAI batch file); ${request.task} takes --input-dir and --output-dir.`, { field: "input" });
  const inputDir = check(request.inputDir, { option: "--input-dir", field: "inputDir", access: "read", kind: "folder" });
  const outputDir = check(request.outputDir, { option: "--output-dir", field: "outputDir", access: "write", kind: "folder" });
  if (within(inputDir, outputDir)) throw badRequest("--output-dir must not be the input folder or hold it: outputs would be taken for inputs.", { field: "outputDir" });
  return { inputDir, outputDir };
}

/** Where an upload may come from, and where it goes: the job's folder under the profile's home. */
export interface Staging {
  /** svc's uploads folder on this machine (homeLayout's uploadsDir). */
  uploadsDir: string;
  /** The profile's home on the host that runs its jobs. */
  home: string;
  /** The job's id. */
  id: string;
}

/** An upload is a file inside svc's uploads folder on this machine, named without links or `..`. */
function checkUpload(given: string, uploadsDir: string): string {
  const refuse = (why: string) => badRequest(`upload ${given}: ${why}`, { field: "upload" });
  if (!isAbsolute(given) || given.split("/").includes("..") || !within(given, uploadsDir) || given === uploadsDir) throw refuse(`give a file in svc's uploads folder (${uploadsDir}).`);
  let real: string;
  try {
    real = realpathSync(given);
  } catch {
    throw refuse("there is no such file.");
  }
  if (!within(real, realpathSync(uploadsDir)) || !statSync(real).isFile()) throw refuse(`give a file in svc's uploads folder (${uploadsDir}).`);
  return real;
}

/**
 * Checks a batch request and plans its runtime as `svc run` would (the same profile, model choice,
 * server, image and job option rules: with --gres, vLLM on GPUs, sized like a service). A task the model cannot serve is refused naming those it can.
 * A LoRA adapter named as the model runs as `svc run BASE --adapter ADAPTER` would serve it (`--revision` then pins the base).
 */
export async function planBatch(request: BatchRunRequest, deps: PlannerDeps, staging: Omit<Staging, "home">): Promise<BatchPlan> {
  const modelTask = BATCH_TASK_MODEL[request.task];
  const profile = await deps.profile(request.profile ?? DEFAULT_PROFILE);
  const rows = await deps.models(profile.name, request.model);
  const adapter = await batchAdapterOf(rows, profile.name, (repo) => deps.models(profile.name, repo));
  if (rows.length > 0 && !rows.some((row) => row.image === modelTask)) {
    const can = batchTasksFor(rows[0].image);
    throw badRequest(`${request.model} is a ${rows[0].image} model: it cannot ${request.task}. Its batch tasks: ${can.join(", ")}.`, { field: "task" });
  }
  const problem = batchParamsProblem(request.task, request.params ?? {});
  if (problem) throw badRequest(problem, { field: "params" });
  const paths = checkPaths(request, deps.capabilities(profile), deps.protectedPlaces, { ...staging, home: profileFolders(profile).home });
  const plan = await planLaunch(
    {
      task: modelTask,
      model: adapter?.base ?? request.model,
      ...(adapter ? { adapters: [adapter.adapter] } : {}),
      revision: request.revision,
      profile: profile.name,
      name: request.name,
      job: request.job,
      textGeneration: request.textGeneration,
    },
    deps,
    DEFAULT_PROFILE,
  ).catch((error) => {
    throw asBatchAdapterRefusal(error);
  });
  if (adapter) checkAdapterTask(request.task, plan.server, adapter);
  return {
    plan,
    stored: {
      ...paths,
      params: request.params ?? {},
      inputExt: request.inputExt?.map((ext) => (ext.startsWith(".") ? ext : `.${ext}`).toLowerCase()),
      concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
      idleTimeout: request.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_S,
      job: plan.job,
      textGeneration: request.textGeneration,
      ...(adapter ? { adapter: adapter.adapter } : {}),
      launch: { image: plan.image, args: plan.args, modelDir: plan.model.modelDir, ...(plan.mounts.length ? { mounts: plan.mounts } : {}) },
    },
  };
}
