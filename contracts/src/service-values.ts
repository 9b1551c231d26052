/**
 * Plain values about services (tasks, statuses, engines), without their typebox schemas (services.ts
 * has those), so that what needs only these (the CLI's start-up) does not load typebox.
 */

/**
 * The task a service (and a model) serves. A model row's and the API's `image` field carry the
 * task too (spec §2.4's IMAGE column); everywhere else "image" means a container image.
 */
export const TASKS = ["text-generation", "speech-recognition"] as const;
export type Task = (typeof TASKS)[number];
export const isTask = (text: unknown): text is Task => (TASKS as readonly unknown[]).includes(text);
/**
 * How a task may be written wherever one is read (CLI, REST, UI): as above, or as the IMAGE column
 * shows it (`text_generation`). What is read is turned into a Task with toTask.
 */
export const TASK_NAMES = [...TASKS, "text_generation", "speech_recognition"] as const;
export type TaskName = (typeof TASK_NAMES)[number];
/** The task `text` names in either spelling, else undefined. */
export const toTask = (text: unknown): Task | undefined => {
  const dashed = typeof text === "string" ? text.replace("_", "-") : text;
  return isTask(dashed) ? dashed : undefined;
};

/** The IMAGE column of `svc ls`: the task written with an underscore (spec §2.4). */
export type ImageName = "text_generation" | "speech_recognition";
export const imageOf = (task: Task): ImageName => task.replace("-", "_") as ImageName;

/** What runs services: a container on this machine's Docker, or a Slurm job. */
export const ENGINE_KINDS = ["docker", "slurm"] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/**
 * How an inference server is started where the engine runs it: `docker` (a container image on a
 * local profile), or on a slurm profile `bare` (the runtime tree run by Bun) or `apptainer` (a SIF image).
 */
export const RUNTIME_KINDS = ["bare", "apptainer", "docker"] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** Which inference server serves a task: the project's CPU runtimes (`svc`), or vLLM's or SGLang's OpenAI server. */
export const INFERENCE_SERVERS = ["svc", "vllm", "sglang"] as const;
export type InferenceServer = (typeof INFERENCE_SERVERS)[number];
/** The GPU engines `svc run --engine` (and a profile's `engine`) can name for text generation; vLLM when none is named. */
export const GPU_ENGINES = ["vllm", "sglang"] as const;
export type GpuEngine = (typeof GPU_ENGINES)[number];
export const DEFAULT_GPU_ENGINE: GpuEngine = "vllm";
export const isGpuEngine = (text: unknown): text is GpuEngine => (GPU_ENGINES as readonly unknown[]).includes(text);

export const SERVICE_STATUSES = ["SUBMITTED", "PENDING", "STARTING", "HEALTHY", "UNHEALTHY", "STOPPING", "STOPPED", "FAILED", "TIMEOUT"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const isServiceStatus = (text: unknown): text is ServiceStatus => (SERVICE_STATUSES as readonly unknown[]).includes(text);
/** States a service does not leave by itself; `restart` starts it again. */
export const TERMINAL_STATUSES = ["STOPPED", "FAILED", "TIMEOUT"] as const satisfies readonly ServiceStatus[];
/** States the reconciler still follows (every other one). */
export const LIVE_STATUSES = SERVICE_STATUSES.filter((status) => !(TERMINAL_STATUSES as readonly string[]).includes(status));
/** States on the way up, not answering yet: queued, submitted or starting (a deployment's scaler counts them as coming replicas). */
export const ON_ITS_WAY_UP_STATUSES = ["SUBMITTED", "PENDING", "STARTING"] as const satisfies readonly ServiceStatus[];
/** Live states on the way somewhere (starting, stopping): the reconciler looks more often while any service is in one. */
export const BUSY_STATUSES = [...ON_ITS_WAY_UP_STATUSES, "STOPPING"] as const satisfies readonly ServiceStatus[];
/** Live states in which a service will answer soon (on its way up, or its health check failing): /v1 asks the client to retry. */
export const COMING_STATUSES = [...ON_ITS_WAY_UP_STATUSES, "UNHEALTHY"] as const satisfies readonly ServiceStatus[];
/** Ended states that a request to an on-demand service starts again. */
export const DORMANT_STATUSES = ["STOPPED", "TIMEOUT"] as const satisfies readonly ServiceStatus[];
/** States in which the engine runs the service (and, on Slurm, holds its allocation): its running time counts. */
export const RUNNING_ON_ENGINE_STATUSES = ["STARTING", "HEALTHY", "UNHEALTHY", "STOPPING"] as const satisfies readonly ServiceStatus[];
/** States whose reason says what went wrong. */
export const TROUBLE_STATUSES = ["UNHEALTHY", "FAILED", "TIMEOUT"] as const satisfies readonly ServiceStatus[];
/** The live states a model's services can be in, nearest to answering first (/v1/models shows the best one). */
export const READINESS_ORDER = ["HEALTHY", "UNHEALTHY", "STARTING", "PENDING", "SUBMITTED"] as const satisfies readonly ServiceStatus[];

/** A test of whether a status is one of `group`. */
export const statusIn =
  <S extends string>(group: readonly S[]) =>
  (status: string): boolean =>
    (group as readonly string[]).includes(status);
export const isLive = statusIn(LIVE_STATUSES);
export const isOnItsWayUp = statusIn(ON_ITS_WAY_UP_STATUSES);
export const isBusy = statusIn(BUSY_STATUSES);
export const isComing = statusIn(COMING_STATUSES);
export const isDormant = statusIn(DORMANT_STATUSES);
export const isRunningOnEngine = statusIn(RUNNING_ON_ENGINE_STATUSES);
export const isTrouble = statusIn(TROUBLE_STATUSES);

/** A container image reference (`name[:tag][@digest]`, with a registry host and port): no spaces, quotes or shell syntax. */
export const IMAGE_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._\/:@+-]{0,511}$/;

/** The answer header of GET /api/services that carries the next page's cursor, when more services follow. */
export const NEXT_CURSOR_HEADER = "X-Next-Cursor";
