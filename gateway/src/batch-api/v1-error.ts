/** A refusal of the Files or Batch API, answered in OpenAI's error shape (see proxyError). */
export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export const invalid = (message: string, param: string | null = null) => new V1Error(400, "invalid_request", message, param);
export const missing = (what: string, id: string) => new V1Error(404, "not_found", `No ${what} with id '${id}'.`);
