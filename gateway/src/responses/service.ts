import type { ServiceRoute } from "@svc/contracts";
import type { Caller } from "../openai/caller";
import { BodyError, readV1Body, type V1Body } from "../openai/request-body";
import { proxyError } from "../proxy/proxy-error";
import { responsesRefusal } from "./chat-refusal";
import { responseOfChat, startedResponse } from "./from-chat";
import type { CreateResponseRequest, InputItem, ResponseBody } from "./model";
import { watchFinalResponse } from "./native-stream";
import { checkForTranslation, refuseEverywhere, type Refusal } from "./refusals";
import { ownerOf, type ResponseStore } from "./store";
import { responseEvents } from "./stream-events";
import { chatMessageOrigins, inputItems, toChatRequest, turnHistory } from "./to-chat";
import { messageOrigin } from "./message-origin";

export const RESPONSES_PATH = "/v1/responses";

/** Where a request goes on the service chosen for it, or the refusal to answer instead. */
export type Plan = (service: ServiceRoute) => { path: string; json: Record<string, unknown> } | Response;

/** Routes a request the gateway prepared to a service of its model as /v1 routes every request (usage recorded per key under /v1/responses). */
export type SendToModel = (body: V1Body, plan: Plan) => Promise<Response>;

const refused = (refusal: Refusal, status = 400) => proxyError(status, refusal.code, refusal.message, {}, refusal.param);
const notFound = (id: string) => proxyError(404, "response_not_found", `No response with id '${id}' (responses are kept per API key, and not with store: false).`, {}, "response_id");

/** The upstream answer's headers (the service that answered, connection handling) for an answer made here. */
function headersFrom(upstream: Response, contentType: string): Headers {
  const headers = new Headers(upstream.headers);
  headers.delete("content-length");
  headers.set("content-type", contentType);
  return headers;
}

/**
 * OpenAI's Responses API on /v1 for every text-generation service: an engine that serves
 * /v1/responses itself (vLLM, SGLang) gets the request as sent (a previous_response_id replaced by
 * the turns it stands for, which the gateway keeps); svc's CPU runtime gets it translated to chat
 * completions, and its answer (or stream) is translated back. The gateway keeps each response per
 * caller (ResponseStore) unless `store: false`, for previous_response_id, GET and DELETE.
 */
export class ResponsesApi {
  constructor(private readonly store: ResponseStore) {}

  handles = (path: string) => path === RESPONSES_PATH || path.startsWith(`${RESPONSES_PATH}/`);

  async handle(request: Request, caller: Caller, path: string, send: SendToModel): Promise<Response> {
    const owner = ownerOf(caller);
    if (path === RESPONSES_PATH) {
      if (request.method !== "POST") return proxyError(405, "method_not_allowed", `${path} takes POST; GET and DELETE take ${path}/{response_id}.`, { allow: "POST" });
      return this.create(request, owner, send);
    }
    const id = decodeURIComponent(path.slice(RESPONSES_PATH.length + 1));
    if (id.includes("/")) return proxyError(404, "unknown_url", `Unknown endpoint ${request.method} ${path}: svc answers POST ${RESPONSES_PATH}, GET and DELETE ${RESPONSES_PATH}/{response_id}.`);
    if (request.method === "GET") {
      const stored = this.store.get(owner, id);
      return stored ? Response.json(stored.response) : notFound(id);
    }
    if (request.method === "DELETE") return this.store.delete(owner, id) ? Response.json({ id, object: "response.deleted", deleted: true }) : notFound(id);
    return proxyError(405, "method_not_allowed", `${path} takes GET or DELETE.`, { allow: "GET, DELETE" });
  }

  private async create(request: Request, owner: string, send: SendToModel): Promise<Response> {
    let body: V1Body;
    try {
      body = await readV1Body(request);
    } catch (error) {
      if (error instanceof BodyError) return proxyError(error.status, error.code, error.message);
      throw error;
    }
    const json = body.json;
    if (!json) return proxyError(400, "invalid_request", "Send the request as a JSON object (content-type: application/json).");
    const everywhere = refuseEverywhere(json);
    if (everywhere) return refused(everywhere);
    const previousId = json.previous_response_id;
    const previous = typeof previousId === "string" ? this.store.get(owner, previousId) : undefined;
    if (typeof previousId === "string" && !previous) {
      return proxyError(404, "previous_response_not_found", `Previous response with id '${previousId}' not found (responses are kept per API key, and not with store: false).`, {}, "previous_response_id");
    }

    let chosen: { native: true; history: InputItem[] } | { native: false; history: InputItem[]; started: ResponseBody; origin: (index: number) => string } | undefined;
    const upstream = await send(body, (service) => {
      const history = turnHistory(previous, json.input as CreateResponseRequest["input"]);
      if (service.server !== "svc") {
        chosen = { native: true, history };
        const { previous_response_id: _expanded, ...rest } = json;
        return { path: RESPONSES_PATH, json: previous ? { ...rest, input: history } : json };
      }
      const checked = checkForTranslation(json);
      if ("refusal" in checked) return refused(checked.refusal);
      const origins = chatMessageOrigins(checked.request.instructions, history);
      const origin = messageOrigin(origins, history.length - inputItems(checked.request.input).length, typeof checked.request.input === "string");
      // A LoRA adapter's request is answered in its name, as vLLM answers it.
      const model = service.adapters?.includes(checked.request.model) ? checked.request.model : service.model;
      chosen = { native: false, history, started: startedResponse(checked.request, model), origin };
      return { path: "/v1/chat/completions", json: toChatRequest(checked.request, history) };
    });
    if (chosen && !chosen.native && !upstream.ok) return responsesRefusal(upstream, chosen.origin);
    if (!chosen || !upstream.ok || !upstream.body) return upstream;

    const keep = json.store !== false;
    const history = chosen.history;
    const save = (response: ResponseBody) => {
      if (keep) this.store.save(owner, history, response);
    };
    const sse = (upstream.headers.get("content-type") ?? "").includes("text/event-stream");
    if (chosen.native) {
      if (sse) return new Response(watchFinalResponse(upstream.body, save), { status: upstream.status, headers: upstream.headers });
      const answer = (await upstream.json()) as ResponseBody;
      if (answer?.id) save(answer);
      return Response.json(answer, { status: upstream.status, headers: headersFrom(upstream, "application/json") });
    }
    if (sse) return new Response(responseEvents(upstream.body, chosen.started, save), { status: 200, headers: headersFrom(upstream, "text/event-stream; charset=utf-8") });
    const answer = responseOfChat(chosen.started, await upstream.json());
    save(answer);
    return Response.json(answer, { headers: headersFrom(upstream, "application/json") });
  }
}
