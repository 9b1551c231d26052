import { Type, type Static } from "@sinclair/typebox";
import { ServicePolicies, ServicePolicyState, ServiceSuccessor } from "./policies";
import { Placement } from "./placement";
import { literalUnion } from "./literal-union";
import { DeploymentRecord, ScalingRequest } from "./deployments";
import { EngineVersionCheck, EngineVersionText } from "./engine-versions";

export { literalUnion } from "./literal-union";

/**
 * Inference services (spec §2.4, §3, §4.1 `run`): what `svc run` asks for and what the
 * orchestrator records. Shared by orchestrator-svc, the gateway, the client and the CLI.
 * JSON fields are camelCase (CLI options map onto them: --max-total-tokens → maxTotalTokens).
 */

import { ENGINE_KINDS, GPU_ENGINES, TASK_NAMES, TASKS, SERVICE_STATUSES, toTask, type ServiceStatus as ServiceStatusValue, type Task as TaskValue, type TaskName as TaskNameValue } from "./service-values";

export * from "./service-values";
export type Task = TaskValue;
export const Task = literalUnion(TASKS);
export type TaskName = TaskNameValue;
export const TaskName = literalUnion(TASK_NAMES, { description: "The task: text-generation or speech-recognition (text_generation and speech_recognition are read the same)." });
export type ServiceStatus = ServiceStatusValue;
export const ServiceStatus = literalUnion(SERVICE_STATUSES);

/**
 * The characters Slurm accepts for the values svc passes to it (and the shapes of --time): a run
 * request is held to them whatever its engine, and a job script holds every value to them again.
 */
export const SLURM_VALUE_RULES = {
  /** M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
  TIME: /^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+|\d+-\d+:\d{1,2}|\d+-\d+:\d{1,2}:\d{1,2})$/,
  NAME: /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/,
  PARTITION: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/,
  /** Node features joined by Slurm's operators: & | , and brackets, with optional *count. */
  CONSTRAINT: /^[A-Za-z0-9_.\-&|,*\[\]()]{1,256}$/,
  /** Account, QOS and reservation names (sacctmgr's and scontrol's names). */
  ACCOUNT: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/,
  /** Node names and Slurm hostlists: node01,gpu[1-4,7]. */
  NODELIST: /^[A-Za-z0-9][A-Za-z0-9_.\-,\[\]]{0,1023}$/,
} as const;

/** The slurm-only job options, as `svc run` spells them, with their JSON names: they do nothing on Docker. */
export const SLURM_ONLY_JOB_OPTIONS = [
  ["--time", "time"],
  ["--ntasks-per-node", "ntasksPerNode"],
  ["--partition", "partition"],
  ["--constraint", "constraint"],
  ["--account", "account"],
  ["--qos", "qos"],
  ["--reservation", "reservation"],
  ["--exclude", "exclude"],
  ["--nodelist", "nodelist"],
] as const;

/** Slurm-style job options (spec §4.1); the Docker engine honours mem and gres (the others do nothing there, and say so). */
export const JobOptions = Type.Object(
  {
    time: Type.Optional(Type.String({ maxLength: 32, description: "Duration: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS." })),
    nodes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024, description: "Nodes of the job (a model larger than one node: pipeline parallel across them)." })),
    ntasksPerNode: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
    mem: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Memory per node in GB." })),
    gres: Type.Optional(Type.Integer({ minimum: 0, maximum: 64, description: "GPU devices per node." })),
    partition: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    constraint: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "Slurm account to charge the job to." })),
    qos: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "Slurm quality of service." })),
    reservation: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "Slurm reservation to run in." })),
    exclude: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "Nodes the job must not run on (a Slurm hostlist, e.g. node[01-04])." })),
    nodelist: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "Nodes the job must run on (a Slurm hostlist)." })),
  },
  { $id: "JobOptions", additionalProperties: false },
);
export type JobOptions = Static<typeof JobOptions>;

export const TextGenerationOptions = Type.Object(
  {
    disableCustomKernels: Type.Optional(Type.Boolean()),
    sharded: Type.Optional(Type.String({ maxLength: 16, description: "`true`/`false`: shard across all GPUs (needs 2 or more)." })),
    maxInputLength: Type.Optional(Type.Integer({ minimum: 1 })),
    maxTotalTokens: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { $id: "TextGenerationOptions", additionalProperties: false },
);
export type TextGenerationOptions = Static<typeof TextGenerationOptions>;

export const SpeechRecognitionOptions = Type.Object(
  {
    inputDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "Folder on the service host that `audio_path` is resolved in; default <home>/inputs." })),
  },
  { $id: "SpeechRecognitionOptions", additionalProperties: false },
);
export type SpeechRecognitionOptions = Static<typeof SpeechRecognitionOptions>;

/** `--mount PATH`: host folders bound read-only into the service, each at the same path. */
export const Mounts = Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), {
  maxItems: 32,
  description: "Absolute folders on the service host, each bound read-only into the service at the same path (Docker: a read-only bind mount; Apptainer: --bind …:ro; a bare Slurm job sees the node's filesystem and checks each folder is there).",
});
export const MAX_GRACE_PERIOD = 7 * 24 * 3600;
/** `--grace-period SECONDS`. */
export const GracePeriod = Type.Integer({
  minimum: 0,
  maximum: MAX_GRACE_PERIOD,
  description: "Seconds a starting service may fail its health check before it counts as UNHEALTHY; default: no limit (it stays STARTING until it answers).",
});
/** A `--mount` folder: absolute, one line, without `:` and `,` (which separate Apptainer's and Docker's mount fields) or `..`. */
export const isMountPath = (path: string) => /^\/[^\x00-\x1f\x7f:,]*$/.test(path) && !path.split("/").includes("..");
/** `--image REF`. */
export const ImageRef = Type.String({
  minLength: 1,
  maxLength: 512,
  description: "The container image of this service's inference server, instead of the app's (SVC_TEXT_GENERATION_IMAGE, SVC_SPEECH_RECOGNITION_IMAGE).",
});

/**
 * What both run requests (`svc run`, `svc batch run`) say after their task: the model, its revision,
 * the profile and the name. Spread into each request's Type.Object.
 */
export const RUN_TARGET_FIELDS = {
  model: Type.String({ minLength: 1, maxLength: 256, description: "Repo id, <owner>/<name>." }),
  revision: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  profile: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
};

/** `--adapter NAME` (repeatable): LoRA adapters of the registry served on the run's model. */
export const RunAdapters = Type.Array(Type.String({ minLength: 1, maxLength: 256, description: "An adapter's repo id, <owner>/<name>, as the registry lists it." }), {
  maxItems: 32,
  description: "LoRA adapters (repo ids of the registry, on the same profile) served on the model, each a model of /v1 under its repo id. Each is checked against the model before anything starts.",
});

/** Body of POST /api/services/{ref}/adapters and query of DELETE (`svc adapter add|rm SERVICE ADAPTER`). */
export const AdapterChange = Type.Object(
  { adapter: Type.String({ minLength: 1, maxLength: 256, description: "The adapter's repo id, as the registry lists it (and /v1 serves it)." }) },
  { $id: "AdapterChange", additionalProperties: false },
);
export type AdapterChange = Static<typeof AdapterChange>;

/** Body of POST /api/services (`svc run`). */
export const RunRequest = Type.Object(
  {
    task: TaskName,
    ...RUN_TARGET_FIELDS,
    // The same field with its default described (it keeps its place after model).
    revision: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Commit id; default: the most recent local revision." })),
    apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    dryRun: Type.Optional(Type.Boolean()),
    job: Type.Optional(JobOptions),
    textGeneration: Type.Optional(TextGenerationOptions),
    speechRecognition: Type.Optional(SpeechRecognitionOptions),
    engine: Type.Optional(
      literalUnion(GPU_ENGINES, { description: "The GPU text-generation server: `vllm` or `sglang`; default: the profile's `engine`, else vllm. Its engine arguments are checked against its pinned version's options." }),
    ),
    engineArgs: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 256, description: "Passed to the inference engine, each as one argument." })),
    engineVersion: Type.Optional(EngineVersionText),
    policies: Type.Optional(ServicePolicies),
    mounts: Type.Optional(Mounts),
    gracePeriod: Type.Optional(GracePeriod),
    image: Type.Optional(ImageRef),
    scaling: Type.Optional(ScalingRequest),
    adapters: Type.Optional(RunAdapters),
  },
  {
    $id: "RunRequest",
    additionalProperties: false,
    examples: [
      { task: "text-generation", model: "svc-tiny/tiny-llama-gguf", apiKey: "sk-my-key", job: { time: "01:00:00" } },
      { task: "text-generation", model: "svc-tiny/tiny-llama-gguf", policies: { idleStop: "30m", onDemand: true } },
      { task: "speech-recognition", model: "openai/whisper-tiny", dryRun: true },
    ],
  },
);
/** A run request as sent: its task in either spelling. */
export type RunRequestBody = Static<typeof RunRequest>;
/** A run request as svc handles it, its task read with toTask. */
export type RunRequest = Omit<RunRequestBody, "task"> & { task: Task };
/** The request with its task in the one spelling svc works with. */
export const readRunRequest = (body: RunRequestBody): RunRequest => ({ ...body, task: toTask(body.task)! });


export const ServiceEvent = Type.Object({
  at: Type.String({ format: "date-time" }),
  from: Type.Union([ServiceStatus, Type.Null()]),
  to: ServiceStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
}, { $id: "ServiceEvent" });
export type ServiceEvent = Static<typeof ServiceEvent>;

export const ServicePhases = Type.Object({
  queued: Type.Union([Type.String(), Type.Null()], { description: "When the engine accepted the job." }),
  starting: Type.Union([Type.String(), Type.Null()], { description: "When the engine started running it." }),
  ready: Type.Union([Type.String(), Type.Null()], { description: "When it first answered its health check." }),
}, { $id: "ServicePhases" });

export const ServiceRecord = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  image: Type.Union([Type.Literal("text_generation"), Type.Literal("speech_recognition")], { description: "The task, as the IMAGE column shows it." }),
  task: Task,
  model: Type.String(),
  revision: Type.String(),
  profile: Type.String(),
  status: ServiceStatus,
  reason: Type.Union([Type.String(), Type.Null()], { description: "Why it is in this state (exit code, scheduler reason, …)." }),
  host: Type.Union([Type.String(), Type.Null()]),
  port: Type.Union([Type.Integer(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()], { description: "Where the service answers, once its port is known." }),
  engine: literalUnion(ENGINE_KINDS),
  runtime: Type.String({ description: "The container image (or, in a bare Slurm job, the program) of the inference server that runs the model." }),
  handle: Type.Union([Type.String(), Type.Null()], { description: "Container id or Slurm job id." }),
  apiKeySet: Type.Boolean(),
  job: JobOptions,
  textGeneration: Type.Optional(TextGenerationOptions),
  speechRecognition: Type.Optional(SpeechRecognitionOptions),
  engineArgs: Type.Array(Type.String()),
  policies: ServicePolicyState,
  lastRequestAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "When the gateway last passed it a request (or it last became HEALTHY): the idle clock." }),
  endsAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "When the current job reaches its time limit, as Slurm reports it." }),
  successor: Type.Union([ServiceSuccessor, Type.Null()], { description: "A renewal under way (Slurm, --renew)." }),
  mounts: Type.Optional(Type.Array(Type.String(), { description: Mounts.description })),
  gracePeriod: Type.Optional(Type.Integer({ description: GracePeriod.description })),
  createdBy: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
  runningSeconds: Type.Optional(Type.Number({ description: "How long the engine has run it, over all its runs (from STARTING until it stopped); in lists and details." })),
  gpuHours: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: "Slurm: GPUs allocated (GRES per node) × running hours; null on Docker." })),
  deployment: Type.Optional(Type.Union([Type.String({ format: "uuid" }), Type.Null()], { description: "The deployment this service is a replica of (svc run --replicas), else null." })),
  adapters: Type.Optional(Type.Array(Type.String(), { description: "The LoRA adapters it serves on its model (svc run --adapter), each a model of /v1 under its repo id." })),
}, { $id: "ServiceRecord" });
export type ServiceRecord = Static<typeof ServiceRecord>;

export const ServiceDetails = Type.Composite([
  ServiceRecord,
  Type.Object({ phases: ServicePhases, events: Type.Array(ServiceEvent) }),
], { $id: "ServiceDetails" });
export type ServiceDetails = Static<typeof ServiceDetails>;

export const RunResponse = Type.Object({
  /** Rows of the model registry that matched the model on the profile (step 1 of `svc run`). */
  matched: Type.Integer(),
  revision: Type.String(),
  warnings: Type.Array(Type.String()),
  /** The start-up script (Docker: the equivalent `docker run` line); always given, the only output of a dry run. */
  script: Type.String(),
  service: Type.Union([ServiceRecord, Type.Null()]),
  policies: Type.Optional(ServicePolicyState),
  /** A GPU launch: where it runs and why (issue 29); a dry run's plan. */
  placement: Type.Optional(Placement),
  /** A GPU launch: its engine's version and the option list its arguments were checked against. */
  engineVersion: Type.Optional(EngineVersionCheck),
  /** A run with `scaling`: the deployment created (its replicas are services; `service` is the first one started, or null at MIN 0). */
  deployment: Type.Optional(DeploymentRecord),
}, { $id: "RunResponse" });
export type RunResponse = Static<typeof RunResponse>;
