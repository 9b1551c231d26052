import { Elysia } from "elysia";
import { ApiError, SvcUnreachableError } from "@svc/contracts";

import { describeValidation, type ValidationDescription } from "./validation-message";

/**
 * Turns every error into the JSON ErrorBody: a request that fails validation → 400 (an answer that
 * fails its own schema is a 500), unknown route → 404,
 * ApiError → its status, another internal service not answering → 503. Anything unexpected is
 * logged and answered without a stack trace.
 */
export const errorHandler = new Elysia({ name: "svc/error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
  set.headers["content-type"] = "application/json";
  if (error instanceof ApiError) {
    set.status = error.status;
    return error.toBody();
  }
  if (error instanceof SvcUnreachableError) {
    set.status = 503;
    return { error: "service_unavailable", message: error.message };
  }
  switch (code) {
    case "VALIDATION":
      // An answer that does not match its own schema is svc's fault, not the caller's.
      if ((error as { type?: string }).type === "response") return internalError(request, error, set);
      set.status = 400;
      return validationBody(describeValidation(error as never));
    case "PARSE":
      set.status = 400;
      return { error: "invalid_request", message: "The request body could not be parsed: send valid JSON with Content-Type: application/json." };
    case "NOT_FOUND":
      set.status = 404;
      return { error: "not_found", message: `No route for ${request.method} ${new URL(request.url).pathname}.` };
    default:
      return internalError(request, error, set);
  }
});

/** The message without JSON paths (the CLI prints it as it is); the first path in `details.field`, as other 400s give it, and all in `details.fields` when there are several. */
function validationBody({ message, fields }: ValidationDescription) {
  const named = fields.filter(Boolean);
  if (named.length === 0) return { error: "invalid_request", message };
  return { error: "invalid_request", message, details: named.length === 1 ? { field: named[0] } : { field: named[0], fields: named } };
}

function internalError(request: Request, error: unknown, set: { status?: number | string }) {
  console.error(`[error] ${request.method} ${new URL(request.url).pathname}:`, error);
  set.status = 500;
  return { error: "internal_error", message: "Something unexpected failed inside svc; see the logs in $SVC_HOME_DIR/logs." };
}
