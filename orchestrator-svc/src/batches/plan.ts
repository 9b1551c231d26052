import { existsSync, statSync } from "node:fs";
import { posix } from "node:path";
import { badRequest, batchParamsProblem, BATCH_TASK_MODEL, batchTasksFor, DEFAULT_PROFILE, type BatchRunRequest, type JobOptions, type Profile, type RunRequest } from "@svc/contracts";
import type { BatchLaunch } from "../engines/engine";
import { checkInputDir } from "../launch/input-dir";
import { planLaunch, type LaunchPlan, type PlannerDeps } from "../launch/planner";

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_IDLE_TIMEOUT_S = 120;

/** What a batch row's `spec` column holds: the request's folders and options as checked, and the launch. */
export interface StoredBatchSpec {
  inputDir?: string;
  outputDir?: string;
  input?: string;
  output?: string;
  params: Record<string, string | number | boolean>;
  inputExt?: string[];
  concurrency: number;
  idleTimeout: number;
  job: JobOptions;
  textGeneration?: RunRequest["textGeneration"];
  launch: { image: string; args: string[]; modelDir: string };
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

/** The folders (or files) of a request, each held to the profile's allowed places; on this machine the inputs must exist. */
function checkPaths(request: BatchRunRequest, profile: Profile, roots: string[]) {
  const local = profile.schema === "local";
  if (request.task === "openai") {
    if (!request.input || !request.output) throw badRequest("task openai needs --input <requests.jsonl> and --output <results.jsonl>.", { field: "input" });
    if (request.inputDir || request.outputDir) throw badRequest("task openai takes --input and --output (files), not --input-dir and --output-dir.", { field: "inputDir" });
    const input = checkInputDir(profile, request.input, roots, "--input", "input");
    const output = checkInputDir(profile, request.output, roots, "--output", "output");
    if (local && !(existsSync(input) && statSync(input).isFile())) throw badRequest(`--input ${request.input}: there is no such file.`, { field: "input" });
    if (input === output) throw badRequest("--output must be another file than --input.", { field: "output" });
    return { input, output };
  }
  if (!request.inputDir || !request.outputDir) throw badRequest(`task ${request.task} needs --input-dir and --output-dir.`, { field: "inputDir" });
  if (request.input || request.output) throw badRequest(`--input and --output are for task openai (an OpenAI batch file); ${request.task} takes --input-dir and --output-dir.`, { field: "input" });
  const inputDir = checkInputDir(profile, request.inputDir, roots, "--input-dir", "inputDir");
  const outputDir = checkInputDir(profile, request.outputDir, roots, "--output-dir", "outputDir");
  if (local && !(existsSync(inputDir) && statSync(inputDir).isDirectory())) throw badRequest(`--input-dir ${request.inputDir}: there is no such folder.`, { field: "inputDir" });
  if (within(inputDir, outputDir)) throw badRequest("--output-dir must not be the input folder or hold it: outputs would be taken for inputs.", { field: "outputDir" });
  return { inputDir, outputDir };
}

/**
 * Checks a batch request and plans its runtime as `svc run` would (the same profile, model choice,
 * image and job option rules). A task the model cannot serve is refused naming those it can.
 */
export async function planBatch(request: BatchRunRequest, deps: PlannerDeps): Promise<BatchPlan> {
  const modelTask = BATCH_TASK_MODEL[request.task];
  const profile = await deps.profile(request.profile ?? DEFAULT_PROFILE);
  const rows = await deps.models(profile.name, request.model);
  if (rows.length > 0 && !rows.some((row) => row.image === modelTask)) {
    const can = batchTasksFor(rows[0].image);
    throw badRequest(`${request.model} is a ${rows[0].image} model: it cannot ${request.task}. Its batch tasks: ${can.join(", ")}.`, { field: "task" });
  }
  const problem = batchParamsProblem(request.task, request.params ?? {});
  if (problem) throw badRequest(problem, { field: "params" });
  const paths = checkPaths(request, profile, deps.inputRoots);
  const plan = await planLaunch(
    { task: modelTask, model: request.model, revision: request.revision, profile: profile.name, name: request.name, job: request.job, textGeneration: request.textGeneration },
    deps,
    DEFAULT_PROFILE,
  );
  if (plan.server !== "svc") throw badRequest("batch jobs run the svc CPU runtimes; vLLM (--gres) does not run batch jobs yet: drop --gres.", { field: "job" });
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
      launch: { image: plan.image, args: plan.args, modelDir: plan.model.modelDir },
    },
  };
}
