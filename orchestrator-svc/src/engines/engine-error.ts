/**
 * Why an engine could not do what it was asked, in terms that do not depend on how it is reached
 * (Docker's API, SSH): the orchestrator's services feature maps each kind to one HTTP answer.
 */
export type EngineErrorKind =
  /** The engine or the cluster cannot be reached or used right now (Docker not running, SSH down). */
  | "unreachable"
  /** The engine (sbatch, Docker) refused the request as given: its own message says why. */
  | "refused"
  /** The request cannot be expressed for this engine (a value Slurm cannot take, an image it does not have). */
  | "invalid"
  /** The engine answered with an error of its own. */
  | "failed"
  /** What the engine was set up with changed under it (a profile that is no longer of its kind). */
  | "conflict";

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    /** A stable machine-readable code, e.g. `sbatch_refused`, `docker_error`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EngineError";
  }
}
