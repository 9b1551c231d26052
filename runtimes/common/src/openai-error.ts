/** An error answered in the OpenAI API's shape: `{ error: { message, type, param, code } }`. */
export class OpenAiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = "OpenAiError";
  }

  toBody() {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }

  toResponse(headers: Record<string, string> = {}): Response {
    return Response.json(this.toBody(), { status: this.status, headers });
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new OpenAiError(400, message, "invalid_request_error", code, param);
