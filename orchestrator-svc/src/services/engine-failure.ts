import { ApiError } from "@svc/contracts";
import { EngineError, type EngineErrorKind } from "../engines/engine-error";

/** The HTTP status of each kind of engine failure: the one place engine errors become API answers. */
const STATUS: Record<EngineErrorKind, number> = { unreachable: 503, refused: 400, invalid: 400, failed: 502, conflict: 409 };

/** What the API answers when an engine call fails; `what` says what was being done (for errors the engine did not word). */
export function engineFailure(error: unknown, what: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof EngineError) return new ApiError(STATUS[error.kind], error.code, error.message);
  return new ApiError(502, "engine_error", `${what}: ${(error as Error).message}`);
}
