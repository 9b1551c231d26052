import type { ErrorBody } from "./error-body";

/**
 * The one error type of svc: an ErrorBody with its HTTP status. Services throw it (the service shell
 * answers it as JSON), the typed client throws it for every error answer, and the CLI prints its
 * message; so an error keeps its status, code and message from where it is made to where it is shown.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { error: this.code, message: this.message } : { error: this.code, message: this.message, details: this.details };
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError(400, "invalid_request", message, details);
export const notFound = (message: string) => new ApiError(404, "not_found", message);
export const conflict = (message: string) => new ApiError(409, "conflict", message);

/**
 * Nothing answered at all: the application (or, inside it, one internal service) is not running
 * or listens elsewhere. `service` names the internal service when one service called another.
 */
export class SvcUnreachableError extends Error {
  constructor(
    readonly baseUrl: string,
    cause?: unknown,
    readonly service?: string,
  ) {
    super(service ? `${service} is not answering (it may be restarting); try again in a few seconds.` : `Cannot reach the svc application at ${baseUrl}.`, { cause });
    this.name = "SvcUnreachableError";
  }
}
