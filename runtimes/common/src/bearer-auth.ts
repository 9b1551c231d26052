import { createHash, timingSafeEqual } from "node:crypto";
import { OpenAiError } from "./openai-error";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Checks `Authorization: Bearer <key>` in constant time. Returns the 401 response to send, or
 * undefined when the request may pass (or no key was configured).
 */
export function checkBearer(request: Request, apiKey: string | undefined): Response | undefined {
  if (apiKey === undefined) return undefined;
  const header = request.headers.get("authorization") ?? "";
  const match = header.match(/^Bearer\s+(.+)$/i);
  if (!match) {
    return new OpenAiError(401, "Missing API key: send the header 'Authorization: Bearer <API key>'.", "invalid_request_error", "invalid_api_key").toResponse({
      "www-authenticate": "Bearer",
    });
  }
  const given = match[1].trim();
  if (!(timingSafeEqual(digest(given), digest(apiKey)) && given.length === apiKey.length)) {
    return new OpenAiError(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key").toResponse({
      "www-authenticate": "Bearer",
    });
  }
  return undefined;
}
