import { BodyError } from "../openai/request-body";

/** A refusal of the Files or Batch API, answered in OpenAI's error shape (see proxyError): /v1's own error. */
export { BodyError as V1Error };

export const invalid = (message: string, param: string | null = null) => new BodyError(400, "invalid_request", message, param);
export const missing = (what: string, id: string) => new BodyError(404, "not_found", `No ${what} with id '${id}'.`);
