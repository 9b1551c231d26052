import { SshError } from "@svc/ssh";
import { EngineError } from "../engine-error";

/**
 * What went wrong on the way to a cluster, as an EngineError: an EngineError as it is, the
 * connection's SshError as `unreachable`, anything else as `failed` with `code`. `what` says what was being done.
 */
export function clusterFailure(error: unknown, what: string, code = "engine_error"): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof SshError) return new EngineError("unreachable", "cluster_unreachable", `${what}: ${error.message}`);
  return new EngineError("failed", code, `${what}: ${(error as Error).message}`);
}
