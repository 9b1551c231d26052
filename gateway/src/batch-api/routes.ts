import type { Authenticate, Caller } from "../openai/caller";
import { proxyError } from "../proxy/proxy-error";
import type { BatchApiService } from "./batches-service";
import type { FilesService } from "./files-service";
import { invalid, V1Error } from "./v1-error";

/** The paths of OpenAI's Files and Batch API, which the gateway answers itself. */
export const isBatchApiPath = (path: string) => /^\/v1\/(files|batches)(\/|$)/.test(path);

type Handler = (caller: Caller, request: Request, params: string[]) => Promise<unknown> | unknown;

function integerParam(url: URL, name: string, fallback: number, max: number): number {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) throw invalid(`${name} ${JSON.stringify(text)}: give a whole number from 1 to ${max}.`, name);
  return value;
}

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  try {
    const body = await request.json();
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw invalid("Send a JSON object as the request body.");
}

async function formOf(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw invalid("Send the file as multipart/form-data with the fields 'file' and 'purpose'.");
  }
}

/**
 * /v1/files and /v1/batches: who calls is decided as for the rest of /v1 (an API key, the svc
 * token, or anyone in debug mode), each route answers OpenAI's shapes, and every refusal is
 * OpenAI's error shape.
 */
export function batchApiRoutes(files: FilesService, batches: BatchApiService, authenticate: Authenticate) {
  const routes: Array<[string, RegExp, Handler]> = [
    ["POST", /^\/v1\/files$/, async (caller, request) => {
      const form = await formOf(request);
      return files.upload(caller, { file: form.get("file"), purpose: form.get("purpose") });
    }],
    ["GET", /^\/v1\/files$/, (caller, request) => {
      const url = new URL(request.url);
      const order = url.searchParams.get("order") ?? "desc";
      if (order !== "asc" && order !== "desc") throw invalid(`order ${JSON.stringify(order)}: use asc or desc.`, "order");
      return files.list(caller, { purpose: url.searchParams.get("purpose") ?? undefined, after: url.searchParams.get("after") ?? undefined, limit: integerParam(url, "limit", 10_000, 10_000), order });
    }],
    ["GET", /^\/v1\/files\/([^/]+)$/, (caller, _request, [id]) => files.retrieve(caller, id)],
    ["DELETE", /^\/v1\/files\/([^/]+)$/, (caller, _request, [id]) => files.remove(caller, id)],
    ["GET", /^\/v1\/files\/([^/]+)\/content$/, (caller, _request, [id]) => {
      const { path } = files.content(caller, id);
      return new Response(Bun.file(path), { headers: { "content-type": "application/octet-stream" } });
    }],
    ["POST", /^\/v1\/batches$/, async (caller, request) => batches.create(caller, await jsonBody(request))],
    ["GET", /^\/v1\/batches$/, (caller, request) => {
      const url = new URL(request.url);
      return batches.list(caller, url.searchParams.get("after") ?? undefined, integerParam(url, "limit", 20, 100));
    }],
    ["GET", /^\/v1\/batches\/([^/]+)$/, (caller, _request, [id]) => batches.retrieve(caller, id)],
    ["POST", /^\/v1\/batches\/([^/]+)\/cancel$/, (caller, _request, [id]) => batches.cancel(caller, id)],
  ];

  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    const matching = routes.filter(([, pattern]) => pattern.test(path));
    if (matching.length === 0) return proxyError(404, "unknown_url", `Unknown endpoint ${request.method} ${path}.`);
    const route = matching.find(([method]) => method === request.method);
    if (!route) {
      const allow = matching.map(([method]) => method).join(", ");
      return proxyError(405, "method_not_allowed", `${path} takes ${allow}.`, { allow });
    }
    const caller = authenticate(request);
    if (caller instanceof Response) return caller;
    try {
      const params = path.match(route[1])!.slice(1).map(decodeURIComponent);
      const answer = await route[2](caller, request, params);
      return answer instanceof Response ? answer : Response.json(answer);
    } catch (error) {
      if (error instanceof V1Error) return proxyError(error.status, error.code, error.message, {}, error.param);
      throw error;
    }
  };
}
