import { Elysia } from "elysia";
import { OpenAiError } from "./openai-error";

interface ValidationIssue {
  path?: string;
  summary?: string;
  message?: string;
  schema?: { error?: unknown };
}

const issueText = (issue: ValidationIssue) =>
  typeof issue.schema?.error === "string" ? issue.schema.error : (issue.summary ?? issue.message ?? "invalid");

function describeValidation(error: { all?: ValidationIssue[] }): { message: string; param: string | null } {
  const issues = (error.all ?? []).slice(0, 3);
  const param = issues[0]?.path ? issues[0].path.replace(/^\//, "").replaceAll("/", ".") : null;
  const message = issues
    .map((issue) => {
      const text = issueText(issue);
      const where = issue.path ? issue.path.replace(/^\//, "").replaceAll("/", ".") : "body";
      return text.startsWith(`${where}:`) ? text : `${where}: ${text}`;
    })
    .join("; ");
  return { message: message || "The request body does not match the expected shape.", param };
}

/** The OpenAI-shaped error a failed request is answered with; `code` is Elysia's name for what failed. */
export function failureOf(code: unknown, error: unknown, request: Request): OpenAiError {
  if (error instanceof OpenAiError) return error;
  if (code === "VALIDATION") {
    const { message, param } = describeValidation(error as never);
    return new OpenAiError(400, message, "invalid_request_error", null, param);
  }
  if (code === "PARSE") return new OpenAiError(400, "The request body could not be parsed: send valid JSON with Content-Type: application/json.");
  if (code === "NOT_FOUND") return new OpenAiError(404, `No route for ${request.method} ${new URL(request.url).pathname}.`, "invalid_request_error", "not_found");
  console.error(`[error] ${request.method} ${new URL(request.url).pathname}:`, error);
  return new OpenAiError(500, "The inference engine failed on this request; see the service log.", "server_error");
}

/** `error` (thrown by a handler) as the response the error handler below gives for it. */
export function errorResponse(error: unknown, request: Request): Response {
  const failure = failureOf(undefined, error, request);
  return new Response(JSON.stringify(failure.toBody()), { status: failure.status, headers: { "content-type": "application/json" } });
}

/** Answers every error in the OpenAI error shape; never a stack trace. */
export const openAiErrorHandler = new Elysia({ name: "svc/runtime-errors" }).onError({ as: "global" }, ({ code, error, set, request }) => {
  set.headers["content-type"] = "application/json";
  const failure = failureOf(code, error, request);
  set.status = failure.status;
  return failure.toBody();
});
