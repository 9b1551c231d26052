import type { JobOptions, Task } from "@svc/contracts";

/** Everything an engine needs to start one inference service. Built by the launch planner. */
export interface LaunchSpec {
  serviceId: string;
  name: string;
  task: Task;
  /** Container image (Docker) or program (bare Slurm job) that serves the model. */
  runtime: string;
  /** Arguments to the runtime after the model, host and port ones (limits, API key, engine args). */
  args: string[];
  /** The model snapshot folder on the host that runs the service. */
  modelDir: string;
  /** Speech recognition: the folder `audio_path` is resolved in. */
  inputDir?: string;
  job: JobOptions;
  /** Folder for the job's own files (script, log, port file) on the host that runs it. */
  workDir: string;
  /** Docker: the host port, chosen by the orchestrator before render/submit. Slurm: unset (the job picks one on its node). */
  port?: number;
}

/** What the engine reports about one service, in engine-neutral terms. */
export type Observation =
  | { phase: "queued"; reason?: string }
  | { phase: "running"; host: string; port: number | null }
  | { phase: "exited"; outcome: "completed" | "failed" | "timeout" | "cancelled"; reason: string }
  | { phase: "missing" };

export interface Submitted {
  handle: string;
  host: string | null;
  port: number | null;
}

/**
 * The one narrow interface the orchestrator drives engines through (like Nomad's task drivers):
 * Docker and Slurm each implement it.
 */
export interface Engine {
  readonly kind: "docker" | "slurm";
  /** The exact start-up script (Docker: the equivalent `docker run` line) that submit would run. */
  render(spec: LaunchSpec): string;
  submit(spec: LaunchSpec): Promise<Submitted>;
  /** One call for many services: round trips do not grow with their number. */
  inspect(handles: string[]): Promise<Map<string, Observation>>;
  stop(handle: string): Promise<void>;
  /** The service's output; with follow, the stream stays open for new lines. */
  logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>>;
  /** Frees what the engine keeps for a finished service (e.g. the stopped container). */
  release(handle: string): Promise<void>;
  /** Handles of this manager's services that the engine knows, by service id (to adopt a submit interrupted before its handle was recorded). */
  adopt(serviceIds: string[]): Promise<Map<string, string>>;
  /** Calls `onChange` when the engine reports a change (e.g. Docker events); returns a stop function. */
  watch?(onChange: (handle: string) => void): () => void;
}
