/** The application did not answer at all (not started, or started with other host/port settings). */
export class SvcUnreachableError extends Error {
  constructor(readonly baseUrl: string, cause?: unknown) {
    super(`Cannot reach the svc application at ${baseUrl}.`, { cause });
    this.name = "SvcUnreachableError";
  }
}

/** The application answered with an error status; `code` and `message` come from its JSON body. */
export class SvcApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "SvcApiError";
  }
}
