import { Type, type Static } from "@sinclair/typebox";
import { ENGINE_KINDS, JobOptions, literalUnion, RUN_TARGET_FIELDS, statusIn, TextGenerationOptions, type Task } from "./services";

/**
 * Batch jobs (`svc batch`): a model run over a whole folder, or over an OpenAI batch file, by the
 * same runtime a service runs plus svc's batch driver beside it on the node.
 */

/** What a batch job does with each input; `openai` runs an OpenAI Batch API requests file. */
export const BATCH_TASKS = ["transcribe", "chat", "embed", "openai"] as const;
export type BatchTask = (typeof BATCH_TASKS)[number];
export const BatchTask = literalUnion(BATCH_TASKS);

/** The model task each batch task needs. */
export const BATCH_TASK_MODEL: Record<BatchTask, Task> = {
  transcribe: "speech-recognition",
  chat: "text-generation",
  embed: "text-generation",
  openai: "text-generation",
};

/** The batch tasks a model of `task` can serve. */
export const batchTasksFor = (task: Task): BatchTask[] => BATCH_TASKS.filter((batchTask) => BATCH_TASK_MODEL[batchTask] === task);

export const BATCH_STATUSES = ["SUBMITTED", "PENDING", "RUNNING", "STOPPING", "STOPPED", "COMPLETED", "FAILED"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const BatchStatus = literalUnion(BATCH_STATUSES);
/** States the reconciler still follows. */
export const LIVE_BATCH_STATUSES = ["SUBMITTED", "PENDING", "RUNNING", "STOPPING"] as const satisfies readonly BatchStatus[];
/** States a job does not leave by itself; `resume` starts it again. */
export const FINISHED_BATCH_STATUSES = ["STOPPED", "COMPLETED", "FAILED"] as const satisfies readonly BatchStatus[];
/** Live states on the way somewhere (submitted, queued, stopping): the reconciler looks more often while any job is in one. */
export const BUSY_BATCH_STATUSES = ["SUBMITTED", "PENDING", "STOPPING"] as const satisfies readonly BatchStatus[];
/** States whose reason is news (why it waits, stops or failed); a running or completed job's is the driver's last word. */
export const NOTED_BATCH_STATUSES = ["SUBMITTED", "PENDING", "STOPPING", "STOPPED", "FAILED"] as const satisfies readonly BatchStatus[];
export const isLiveBatch = statusIn(LIVE_BATCH_STATUSES);
/** Where the batch driver is, as its progress file says (runtimes/batch-driver). */
export const BATCH_PHASES = ["starting", "running", "idle", "finished", "stopped", "failed"] as const;
export const isBatchPhase = statusIn(BATCH_PHASES);
/** Each input's status in the driver's state file. */
export const BATCH_FILE_STATUSES = ["pending", "running", "done", "failed"] as const;
export const isBatchFileStatus = statusIn(BATCH_FILE_STATUSES);
export const isBusyBatch = statusIn(BUSY_BATCH_STATUSES);
export const isNotedBatch = statusIn(NOTED_BATCH_STATUSES);

/** The `--params` each batch task takes (checked by the orchestrator before a job starts, and by the driver on the node). */
export const BATCH_PARAMS: Record<BatchTask, readonly string[]> = {
  transcribe: ["language", "format", "prompt", "temperature"],
  chat: ["prompt", "system", "max_tokens", "temperature", "seed"],
  embed: [],
  openai: [],
};

/** What is wrong with `params` for `task`, naming the option, or undefined when nothing is. */
export function batchParamsProblem(task: BatchTask, params: Record<string, unknown>): string | undefined {
  const allowed = BATCH_PARAMS[task];
  const unknown = Object.keys(params).filter((key) => !allowed.includes(key));
  if (unknown.length) return `--params ${unknown.join(", ")}: ${task} takes ${allowed.length ? allowed.join(", ") : "no params"}`;
  const format = params.format;
  if (format !== undefined && !["json", "text", "srt", "vtt"].includes(String(format))) return `--params format ${JSON.stringify(format)}: use json, text, srt or vtt`;
  if (params.prompt !== undefined && typeof params.prompt !== "string") return "--params prompt: give a string";
  if (params.system !== undefined && typeof params.system !== "string") return "--params system: give a string";
  if (params.language !== undefined && !/^[a-z]{2,3}$/.test(String(params.language))) return `--params language ${JSON.stringify(params.language)}: give a language code such as en`;
  for (const key of ["max_tokens", "seed"]) if (params[key] !== undefined && !Number.isInteger(params[key])) return `--params ${key}: give a whole number`;
  for (const key of ["temperature"]) if (params[key] !== undefined && typeof params[key] !== "number") return `--params ${key}: give a number`;
  return undefined;
}

/** Body of POST /api/batches (`svc batch run`). */
export const BatchRunRequest = Type.Object(
  {
    task: BatchTask,
    ...RUN_TARGET_FIELDS,
    inputDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Folder tasks: the folder of inputs (sub-folders too), on the host that runs the job." })),
    outputDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Folder tasks: where outputs go, at the inputs' relative paths." })),
    input: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "task openai: the requests file (JSONL in OpenAI's batch input format)." })),
    output: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "task openai: the results file (JSONL in OpenAI's batch output format)." })),
    upload: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description:
          "task openai, instead of input and output: a requests file in svc's uploads folder on its own machine (where the gateway keeps /v1/files). svc copies it to `<profile home>/batches/<job id>/requests.jsonl` on the host that runs the job and writes the results beside it (`results.jsonl`, read back with GET /api/batches/{ref}/results).",
      }),
    ),
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 100_000 }), Type.Number(), Type.Boolean()]), { description: "transcribe: language, format (json, text, srt, vtt), prompt, temperature; chat: prompt (a template with {text}), system, max_tokens, temperature, seed." })),
    inputExt: Type.Optional(Type.Array(Type.String({ pattern: "^\\.?[A-Za-z0-9]{1,16}$" }), { minItems: 1, maxItems: 32, description: "Extensions of the inputs, e.g. [\".wav\", \".mp3\"]." })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 256, description: "Requests in flight at once (default 4)." })),
    idleTimeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800, description: "Seconds to wait for new inputs once all are done (default 120)." })),
    job: Type.Optional(JobOptions),
    textGeneration: Type.Optional(TextGenerationOptions),
    dryRun: Type.Optional(Type.Boolean()),
  },
  {
    $id: "BatchRunRequest",
    additionalProperties: false,
    examples: [
      { task: "transcribe", model: "openai/whisper-tiny", inputDir: "/data/interviews", outputDir: "/data/transcripts", params: { language: "en" } },
      { task: "openai", model: "svc-tiny/tiny-llama-gguf", input: "/data/requests.jsonl", output: "/data/results.jsonl" },
    ],
  },
);
export type BatchRunRequest = Static<typeof BatchRunRequest>;

/** How far a job is, as its driver last reported it from the node. */
export const BatchProgress = Type.Object(
  {
    phase: literalUnion(BATCH_PHASES),
    total: Type.Integer({ description: "Inputs seen so far." }),
    done: Type.Integer(),
    failed: Type.Integer(),
    running: Type.Integer(),
    filesPerMinute: Type.Number({ description: "In the current allocation." }),
    etaSeconds: Type.Union([Type.Integer(), Type.Null()], { description: "Time left at the current rate, when it can be told." }),
    updatedAt: Type.String({ format: "date-time" }),
  },
  { $id: "BatchProgress" },
);
export type BatchProgress = Static<typeof BatchProgress>;

export const BatchRecord = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    name: Type.String(),
    task: BatchTask,
    model: Type.String({ description: "The model it runs (with an adapter: the adapter's base)." }),
    revision: Type.String(),
    adapter: Type.Union([Type.String(), Type.Null()], { description: "The LoRA adapter every request names, applied to `model` (its base), when the job was given an adapter." }),
    profile: Type.String(),
    engine: literalUnion(ENGINE_KINDS),
    status: BatchStatus,
    reason: Type.Union([Type.String(), Type.Null()]),
    allocations: Type.Integer({ description: "Jobs the engine ran for it (a Slurm job that reached its time limit is followed by another)." }),
    progress: Type.Union([BatchProgress, Type.Null()]),
    inputDir: Type.Union([Type.String(), Type.Null()]),
    outputDir: Type.Union([Type.String(), Type.Null()]),
    input: Type.Union([Type.String(), Type.Null()]),
    output: Type.Union([Type.String(), Type.Null()]),
    handle: Type.Union([Type.String(), Type.Null()], { description: "Container id or Slurm handle of the current allocation." }),
    createdBy: Type.String(),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
  },
  { $id: "BatchRecord" },
);
export type BatchRecord = Static<typeof BatchRecord>;

export const BatchFile = Type.Object(
  {
    path: Type.String({ description: "Relative to the input folder (task openai: the custom_id)." }),
    status: literalUnion(BATCH_FILE_STATUSES),
    reason: Type.Optional(Type.String()),
  },
  { $id: "BatchFile" },
);
export type BatchFile = Static<typeof BatchFile>;

export const BatchEvent = Type.Object(
  {
    at: Type.String({ format: "date-time" }),
    from: Type.Union([BatchStatus, Type.Null()]),
    to: BatchStatus,
    reason: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: "BatchEvent" },
);

export const BatchDetails = Type.Composite(
  [
    BatchRecord,
    Type.Object({
      params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
      inputExt: Type.Union([Type.Array(Type.String()), Type.Null()]),
      concurrency: Type.Integer(),
      idleTimeout: Type.Integer(),
      job: JobOptions,
      files: Type.Array(BatchFile, { description: "Each input's status, as the driver last wrote it (empty before it started)." }),
      failures: Type.Array(BatchFile, { description: "The inputs that failed, with the reason." }),
      filesNote: Type.Union([Type.String(), Type.Null()], { description: "Why `files` is empty or cut, when it is." }),
      events: Type.Array(BatchEvent),
    }),
  ],
  { $id: "BatchDetails" },
);
export type BatchDetails = Static<typeof BatchDetails>;

export const BatchRunResponse = Type.Object(
  {
    matched: Type.Integer(),
    revision: Type.String(),
    warnings: Type.Array(Type.String()),
    script: Type.String({ description: "The job's start-up script (Docker: the equivalent `docker run` line)." }),
    batch: Type.Union([BatchRecord, Type.Null()]),
  },
  { $id: "BatchRunResponse" },
);
export type BatchRunResponse = Static<typeof BatchRunResponse>;

export const BatchResumeRequest = Type.Object(
  { retryFailed: Type.Optional(Type.Boolean({ description: "Run the inputs that failed again." })) },
  { $id: "BatchResumeRequest", additionalProperties: false },
);
export type BatchResumeRequest = Static<typeof BatchResumeRequest>;
