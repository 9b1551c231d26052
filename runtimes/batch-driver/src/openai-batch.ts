import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { writeAtomically } from "./atomic-write";
import type { RuntimeClient } from "./runtime-client";

/** The endpoints an OpenAI batch file may name, as OpenAI's Batch API has them. */
export const BATCH_URLS = ["/v1/chat/completions", "/v1/completions", "/v1/embeddings"];

export interface BatchRequest {
  customId: string;
  url?: string;
  body?: unknown;
  /** Why the line cannot be sent (it is answered with an error line). */
  invalid?: string;
}

/** One line of OpenAI's batch output format. */
export interface BatchOutputLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { code: string; message: string } | null;
}

/** The requests file, line by line; a line that is not a request is kept, to be answered with an error. */
export function readRequests(file: string): BatchRequest[] {
  const requests: BatchRequest[] = [];
  const seen = new Set<string>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (!line.trim()) return;
      const fallbackId = `line-${index + 1}`;
      let parsed: { custom_id?: unknown; method?: unknown; url?: unknown; body?: unknown };
      try {
        parsed = JSON.parse(line);
      } catch {
        requests.push({ customId: fallbackId, invalid: `line ${index + 1} is not JSON` });
        return;
      }
      const customId = typeof parsed.custom_id === "string" && parsed.custom_id ? parsed.custom_id : fallbackId;
      const invalid =
        typeof parsed.custom_id !== "string" || !parsed.custom_id
          ? `line ${index + 1} has no custom_id`
          : seen.has(customId)
            ? `custom_id ${customId} is used by an earlier line`
            : parsed.method !== undefined && parsed.method !== "POST"
              ? `method ${JSON.stringify(parsed.method)}: only POST is supported`
              : typeof parsed.url !== "string" || !BATCH_URLS.includes(parsed.url)
                ? `url ${JSON.stringify(parsed.url)}: use one of ${BATCH_URLS.join(", ")}`
                : typeof parsed.body !== "object" || parsed.body === null
                  ? "body: give the request's JSON object"
                  : undefined;
      if (seen.has(customId)) {
        requests.push({ customId: `${fallbackId}`, invalid });
        return;
      }
      seen.add(customId);
      requests.push({ customId, url: parsed.url as string, body: parsed.body, invalid });
    });
  return requests;
}

/** The results file so far: custom_ids answered (failed ones apart); a line cut by a kill is dropped, and with retryFailed the error lines too. */
export function readResults(file: string, tmpDir: string, retryFailed: boolean): { done: Set<string>; failed: Map<string, string> } {
  const done = new Set<string>();
  const failed = new Map<string, string>();
  if (!existsSync(file)) return { done, failed };
  const kept: string[] = [];
  let changed = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    let parsed: BatchOutputLine;
    try {
      parsed = JSON.parse(line);
    } catch {
      changed = true; // the half-written last line of a run that was killed
      continue;
    }
    const ok = parsed.response !== null && parsed.response.status_code < 400;
    if (!ok && retryFailed) {
      changed = true;
      continue;
    }
    kept.push(line);
    if (ok) done.add(parsed.custom_id);
    else failed.set(parsed.custom_id, parsed.error?.message ?? `HTTP ${parsed.response?.status_code}`);
  }
  if (changed) writeAtomically(file, kept.map((line) => `${line}\n`).join(""), tmpDir);
  return { done, failed };
}

const requestId = () => `req_${randomBytes(12).toString("hex")}`;

/** Sends one request and appends its output line (one write call, so lines never interleave); returns the failure reason, if any. */
export async function runBatchRequest(client: RuntimeClient, request: BatchRequest, output: string): Promise<string | undefined> {
  let line: BatchOutputLine;
  let failure: string | undefined;
  if (request.invalid) {
    line = { id: `batch_req_${randomBytes(12).toString("hex")}`, custom_id: request.customId, response: null, error: { code: "invalid_request", message: request.invalid } };
    failure = request.invalid;
  } else {
    // The job serves one model, whatever a line names: the one svc batch run was given.
    const body = client.model && typeof request.body === "object" && request.body !== null ? { ...request.body, model: client.model } : request.body;
    const answer = await client.raw(request.url!, body);
    line = { id: `batch_req_${randomBytes(12).toString("hex")}`, custom_id: request.customId, response: { status_code: answer.status, request_id: requestId(), body: answer.body }, error: null };
    if (answer.status >= 400) {
      const message = (answer.body as { error?: { message?: string } })?.error?.message;
      failure = `HTTP ${answer.status}${message ? `: ${message}` : ""}`;
    }
  }
  appendFileSync(output, `${JSON.stringify(line)}\n`);
  return failure;
}
