import type { EngineKind, ImageBuild, JobOptions, Placement, Task } from "@svc/contracts";

/** What the orchestrator asks an engine to start: the service and its inference server. The engine decides where (port, work folder). */
export interface LaunchSpec {
  serviceId: string;
  name: string;
  task: Task;
  /** The inference server's container image (a bare Slurm job runs the program it stands for). */
  image: string;
  /** Arguments to the server after the model, host and port ones (limits, engine args); never the API key. */
  args: string[];
  /** The key callers must present; the engine hands it to the server without putting it on a command line (see api-key.ts). */
  apiKey?: string;
  /** The model snapshot folder on the host that runs the service. */
  modelDir: string;
  /** Speech recognition: the folder `audio_path` is resolved in (on the host that runs the service). */
  inputDir?: string;
  job: JobOptions;
  /** Which job of the service this is: 0 (or absent) for the first, one more for each renewal successor. */
  generation?: number;
  /** Host folders bound read-only into the service (`--mount`); none when absent. */
  mounts?: Mount[];
  /** Seconds a starting service may fail its health check before it is UNHEALTHY (`--grace-period`); the reconciler applies it, engines only show it. */
  gracePeriod?: number;
  /** A batch job: svc's batch driver runs beside the server on the node (it starts the server itself). */
  batch?: BatchLaunch;
  /** A GPU launch: its nodes, GPUs per node and tensor × pipeline parallel sizes (see launch/sizing/). */
  placement?: Placement;
}

/** A host folder bound read-only into a service: where it is on the host, and where the service sees it (the path as given). */
export interface Mount {
  source: string;
  target: string;
}

/** The engine-side name of one job of a service: its id, and `<id>.<generation>` for a renewal's successor (own work folder and Slurm comment). */
export const instanceKey = (serviceId: string, generation = 0) => (generation ? `${serviceId}.${generation}` : serviceId);


/** What a batch job runs besides the server, and the folders it touches, on the host that runs it. */
export interface BatchLaunch {
  /** The driver's own arguments (task, folders, params, …); the engine adds `--progress-file` and the server's command. */
  args: string[];
  /** Folders or files the job reads. */
  reads: string[];
  /** Folders it writes (created when missing). */
  writes: string[];
  /** Its state folder (failures, each input's status), inside one of `writes`. */
  stateDir: string;
}

/** What the engine reports about one service, in engine-neutral terms; `progress` is a batch driver's progress file, read in the same pass. */
export type Observation = (
  | { phase: "queued"; reason?: string }
  | { phase: "running"; host: string; port: number | null; endsAt?: string }
  | { phase: "exited"; outcome: "completed" | "failed" | "timeout" | "cancelled"; reason: string }
  | { phase: "missing" }
) & { progress?: string };

export interface Submitted {
  handle: string;
  host: string | null;
  port: number | null;
  /** What the engine did on the way that the user should hear of (e.g. it built a missing image). */
  notes: string[];
  /** What runs the server when it is not the spec's container image (a bare Slurm job's program, an Apptainer image). */
  runtime?: string;
}

/** What an engine can do beyond the verbs every engine has, so callers ask instead of checking its class. */
export interface EngineCapabilities {
  /** `logs({ follow: true })` keeps the stream open for new output. */
  followsLogs: boolean;
  /** A running service's port on this machine is a tunnel the engine keeps open (released with `release`). */
  tunnels: boolean;
  /** `watch` reports changes as they happen, so the reconciler need not wait for its next tick. */
  watches: boolean;
  /**
   * Where the folders a job reads and writes are: `this-machine` (judged here with links resolved,
   * existence and svc's rights checked, then bound into the container), or `cluster` (judged as
   * written; the job has its user's rights there).
   */
  dataPaths: "this-machine" | "cluster";
  /** Slurm's job options (--time, --partition, --account, …) and a profile's defaults for them apply. */
  slurmJobOptions: boolean;
  /** The server runs from a container image (`--image` applies); false: the bare svc runtime itself. */
  runsImages: boolean;
}

/**
 * The one interface the orchestrator drives engines through, per service (like Nomad's task
 * drivers): Docker and Slurm each implement it. Every failure is an EngineError.
 */
export interface Engine {
  readonly kind: EngineKind;
  readonly capabilities: EngineCapabilities;
  /** The exact start-up script (Docker: the equivalent `docker run` line) that submit would run. */
  render(spec: LaunchSpec): Promise<string>;
  /** Prepares what the service needs to run (e.g. its image), then starts it. */
  submit(spec: LaunchSpec): Promise<Submitted>;
  /** One call for many services: round trips do not grow with their number. */
  inspect(handles: string[]): Promise<Map<string, Observation>>;
  stop(handle: string): Promise<void>;
  /** The service's output; with follow (see capabilities), the stream stays open for new lines. */
  logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>>;
  /** Frees what the engine keeps for a finished service (the stopped container, the tunnel). */
  release(handle: string): Promise<void>;
  /** A small file a job wrote on the host that runs it (a batch job's state file), or undefined when it is not there. */
  readJobFile?(handle: string, path: string, options?: { maxBytes?: number }): Promise<string | undefined>;
  /** Writes a file on the host that runs jobs (a batch job's uploaded requests), its folder made when missing; the file appears whole or not at all. */
  putJobFile?(path: string, data: Uint8Array): Promise<void>;
  /** Handles of this manager's services that the engine knows, by service id (to adopt a submit interrupted before its handle was recorded). */
  adopt(serviceIds: string[]): Promise<Map<string, string>>;
  /** With capabilities.watches: calls `onChange` when the engine reports a change; returns a stop function. */
  watch?(onChange: (handle: string) => void): () => void;
}

/** An optional ability: the engine keeps container images itself (`svc image ls`, `svc image build`). */
export interface ImageStore {
  /** The image's size and creation time, or undefined when the engine does not have it. */
  image(image: string): Promise<{ sizeBytes: number; createdAt: string } | undefined>;
  /** Builds the project's image for `task` (unchanged ones are reused). */
  build(task: Task): Promise<void>;
  /** Recent builds with their output so far, newest first (GET /api/images/builds). */
  builds(): ImageBuild[];
}
