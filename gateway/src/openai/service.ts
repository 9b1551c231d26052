import { INTERNAL_SECRET_HEADER, REQUEST_ID_HEADER, type ServiceRoute } from "@svc/contracts";
import { relay } from "../forward/relay";
import { holdOpen, holdOpenIfSlow, type LazyHold, type TimeoutControl } from "../guard/hold-open";
import { proxyError } from "../proxy/proxy-error";
import { promptPrefix } from "./prompt-prefix";
import { ReplicaChooser } from "./replica-choice";
import { mayUse, type Authenticate, type Caller } from "./caller";
import type { ServiceCatalog } from "./catalog";
import { modelsAnswer } from "./models-list";
import type { OutcomeSink, V1Outcome } from "./outcome";
import { ROUTED_ENDPOINTS, USAGE_STREAM_ENDPOINTS } from "./paths";
import { BodyError, jsonBytes, readV1Body, type V1Body } from "./request-body";
import { resolveModel, servedModels, type Resolution } from "./resolve";
import { JSON_USAGE_LIMIT, jsonUsage, tapUsage } from "./usage-tap";
import { RequestEndWatch, type StreamEnded } from "./request-ends";
import type { ActivityRecorder } from "../activity";
import { NotServing, type OnDemandStarts } from "../on-demand/ensure-serving";
import { waitingStream } from "../on-demand/wait-stream";
import type { Plan, ResponsesApi } from "../responses/service";
import { requestUrl } from "../guard/request-url";

/** The lifecycle policies' part in /v1: idle clocks see its requests, and a model whose service is on demand starts it. */
export interface V1Lifecycle {
  activity: Pick<ActivityRecorder, "touch">;
  starts: Pick<OnDemandStarts, "ensureServing">;
}

/** The caller's credentials are for the gateway; the service gets its own key instead. */
const DROPPED_REQUEST_HEADERS = ["authorization", "cookie", "x-svc-token", INTERNAL_SECRET_HEADER, REQUEST_ID_HEADER, "content-length"];
/** As through /proxy: a service's answer is a sandboxed document on the UI's origin, without cookies. */
const CONFINED_RESPONSE = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" };
/** Header naming the service that answered, for whoever needs to tell replicas apart. */
export const SERVICE_HEADER = "x-svc-service";
const RETRY_AFTER_SECONDS = "5";
/** How long a request whose services all failed to answer waits for one to show up at a new address, and how often it looks. */
const MOVE_WAIT_MS = 10_000;
const MOVE_POLL_MS = 250;

/**
 * One OpenAI base URL for every model: /v1/… picks a HEALTHY service by the request's `model`
 * (the one with the fewest requests in flight), sends the request there with the service's own
 * API key through the same relay /proxy uses (streams unbuffered, a caller that goes away cancels
 * the upstream request), and reports each request's outcome with its token usage: a stream from
 * svc's own runtime passes untouched, its end and usage read from the runtime's records
 * (RequestEndWatch); any other answer's usage is read on its way (tapUsage). A model whose
 * only service is on demand (or being renewed) is waited for: a STOPPED one is started again, and
 * streamed requests get keep-alive comments meanwhile (as through /proxy).
 */
export class OpenAiRouter {
  readonly chooser = new ReplicaChooser();
  readonly balancer = this.chooser.balancer;
  readonly ends: RequestEndWatch;

  constructor(
    private readonly catalog: ServiceCatalog,
    private readonly authenticate: Authenticate,
    private readonly sink: OutcomeSink,
    private readonly lifecycle?: V1Lifecycle,
    private readonly responses?: ResponsesApi,
    ends?: RequestEndWatch,
  ) {
    this.ends = ends ?? new RequestEndWatch();
  }

  async handle(request: Request, server?: TimeoutControl): Promise<Response> {
    const started = performance.now();
    const caller = this.authenticate(request);
    if (caller instanceof Response) return caller;
    const path = requestUrl(request).pathname.replace(/\/+$/, "");

    if (request.method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))) return this.models(path, caller);
    if (this.responses?.handles(path)) return this.respond(request, server, caller, path, started, this.responses);
    if (!ROUTED_ENDPOINTS.has(path)) {
      return proxyError(404, "unknown_url", `Unknown endpoint ${request.method} ${path}: the gateway's /v1 routes ${[...ROUTED_ENDPOINTS].join(", ")} (POST) and /v1/models (GET).`);
    }
    if (request.method !== "POST") return proxyError(405, "method_not_allowed", `${path} takes POST.`, { allow: "POST" });

    const hold = holdOpenIfSlow(request, server);
    return hold.settle(await this.route(request, server, caller, path, started, hold));
  }

  /** /v1/responses…: what the Responses API sends to a model is routed as every /v1 request is; its own refusals of a POST are recorded too. */
  private async respond(request: Request, server: TimeoutControl, caller: Caller, path: string, started: number, responses: ResponsesApi): Promise<Response> {
    const hold = holdOpenIfSlow(request, server);
    let routed = false;
    const answer = await responses.handle(request, caller, path, (body, plan) => {
      routed = true;
      return this.route(request, server, caller, path, started, hold, { body, plan });
    });
    if (!routed && request.method === "POST") {
      this.sink({ at: new Date(), caller, endpoint: path, model: null, modelServed: false, serviceId: null, serviceName: null, status: answer.status, end: "complete", latencyMs: performance.now() - started, usage: null });
    }
    return hold.settle(answer);
  }

  /**
   * A routed POST, from reading its body to the service's answer (or the refusal). `prepared`: a
   * body read already, and where it goes on the service chosen (its path and JSON), or a refusal.
   */
  private async route(
    request: Request,
    server: TimeoutControl,
    caller: Caller,
    path: string,
    started: number,
    hold: LazyHold,
    prepared?: { body: V1Body; plan: Plan },
  ): Promise<Response> {
    const outcome = (partial: Partial<V1Outcome> & Pick<V1Outcome, "status">): V1Outcome => ({
      at: new Date(),
      caller,
      endpoint: path,
      model: null,
      modelServed: false,
      serviceId: null,
      serviceName: null,
      end: "complete",
      latencyMs: performance.now() - started,
      usage: null,
      ...partial,
    });
    const refuse = (response: Response, model: string | null, modelServed = false) => {
      this.sink(outcome({ status: response.status, model, modelServed }));
      return response;
    };

    let body: V1Body;
    try {
      body = prepared?.body ?? (await readV1Body(request));
    } catch (error) {
      if (error instanceof BodyError) return refuse(proxyError(error.status, error.code, error.message), null);
      if (request.signal.aborted) return new Response(null, { status: 499 });
      throw error;
    }
    if (!body.model) return refuse(proxyError(400, "model_required", "Name the model in the request's `model` field: a repo id (owner/name), owner/name@revision or a service name; GET /v1/models lists them."), null);

    let routes: ServiceRoute[];
    try {
      routes = await this.catalog.routes();
    } catch {
      return refuse(proxyError(503, "service_unavailable", "orchestrator-svc is not answering; try again in a few seconds.", { "retry-after": RETRY_AFTER_SECONDS }), body.model);
    }
    let resolved = resolveModel(body.model, routes);
    // The list may be a moment behind the orchestrator (a service that just became HEALTHY, or was just launched): a refusal is confirmed on a fresh one.
    if (resolved.kind === "starting" || resolved.kind === "unknown") {
      routes = await this.catalog.fresh().catch(() => routes);
      resolved = resolveModel(body.model, routes);
    }
    if ((resolved.kind === "ready" || resolved.kind === "starting" || resolved.kind === "wake") && !mayUse(caller, resolved.repo)) {
      return refuse(proxyError(403, "model_not_allowed", `This API key may not use '${resolved.repo}'.`), resolved.repo, true);
    }
    // A stream whose end svc's runtime records passes as it is; another one reports usage in a final chunk only when asked: ask for it, and keep it from a client that did not.
    const usageStream = !prepared && body.stream && !!body.json && USAGE_STREAM_ENDPOINTS.has(path);
    let askingUsage: ArrayBuffer | undefined;
    let stripUsage = false;
    if (usageStream) {
      const options = body.json!.stream_options;
      const asked = !!options && typeof options === "object" && (options as { include_usage?: unknown }).include_usage === true;
      stripUsage = !asked && (options === undefined || options === null || typeof options === "object");
    }
    const tappedBody = () => (askingUsage ??= jsonBytes({ ...body.json, stream_options: { ...((body.json!.stream_options as object) ?? {}), include_usage: true } }));

    const model = body.model;
    // Read only when a prefix-routed deployment is chosen among (then once).
    let prefixRead: { text: string | undefined } | undefined;
    const prefix = () => (prefixRead ??= { text: promptPrefix(body.json) }).text;
    /** `handOver`: called once this request counts on the service chosen (a woken request stops counting on the one it waited for). */
    const forward = async (repo: string, services: ServiceRoute[], handOver?: () => void): Promise<Response> => {
      // A service is tried once at each address: a renewal's handover or new tunnels after a restart move it.
      const tried = new Set<string>();
      const untried = (route: ServiceRoute) => !tried.has(`${route.id} ${route.url}`);
      const moveDeadline = Date.now() + MOVE_WAIT_MS;
      let candidates = services;
      for (;;) {
        let service = this.chooser.choose(repo, candidates.filter(untried), prefix);
        // An outside endpoint does not move: one that did not answer is reported at once.
        const outsideOnly = candidates.every((route) => route.outside);
        while (!service && !outsideOnly && Date.now() < moveDeadline && !request.signal.aborted) {
          await Bun.sleep(MOVE_POLL_MS);
          this.catalog.invalidate();
          const again = resolveModel(model, await this.catalog.routes().catch(() => routes));
          if (again.kind === "wake" && !rerouted) return reroute(again);
          if (again.kind !== "ready") break;
          candidates = again.services;
          service = this.chooser.choose(repo, candidates.filter(untried), prefix);
        }
        if (!service) {
          if (request.signal.aborted) return new Response(null, { status: 499 });
          if (outsideOnly) return refuse(proxyError(502, "endpoint_unreachable", `No outside endpoint of '${repo}' answered (${[...tried].map((key) => key.split(" ")[0].replace(/^endpoint:/, "")).join(", ")}); svc endpoint ls shows their health.`), repo, true);
          return refuse(proxyError(502, "service_unreachable", `No service of '${repo}' answered (tried ${[...tried].map((key) => key.split(" ")[0]).join(", ")}); svc ls shows their state.`), repo, true);
        }
        const planned = prepared?.plan(service);
        if (planned instanceof Response) return refuse(planned, repo, true);
        tried.add(`${service.id} ${service.url}`);
        const done = this.balancer.begin(service.id, service.name);
        handOver?.();
        if (!service.outside) this.lifecycle?.activity.touch(service.id);
        // Its end may be heard before its answer's headers are read.
        let response: Response | undefined;
        let heardEnd: Parameters<StreamEnded> | undefined;
        let streamEnd: V1Outcome["streamEnd"];
        const chosen = service;
        const finish = (how: V1Outcome["end"], usage: V1Outcome["usage"]) => {
          done();
          // Its end is activity too: the idle clock starts when a long stream is over, not when it began.
          if (!chosen.outside) this.lifecycle?.activity.touch(chosen.id);
          this.sink(outcome({ status: response!.status, model: repo, modelServed: true, serviceId: chosen.id, serviceName: chosen.name, end: how, usage, streamEnd }));
        };
        const watched = usageStream ? this.ends.watch(service, (...end) => (response ? finish(...end) : (heardEnd = end))) : undefined;
        const key: Record<string, string> = service.apiKey ? { authorization: `Bearer ${service.apiKey}` } : {};
        try {
          response = await relay(request, `${service.url}${planned?.path ?? path}`, {
            drop: DROPPED_REQUEST_HEADERS,
            set: watched ? { ...key, ...watched.header } : key,
            body: planned ? jsonBytes(planned.json) : stripUsage && !watched ? tappedBody() : body.bytes,
            // Its usage is read here: plain bytes.
            plainBody: true,
            dropFromResponse: ["set-cookie"],
            setOnResponse: (upstream) => ({ ...CONFINED_RESPONSE, ...hold.answered(upstream), [SERVICE_HEADER]: service.id }),
          });
        } catch {
          watched?.forget();
          done();
          if (request.signal.aborted) return new Response(null, { status: 499 });
          // Nothing started there (it stopped meanwhile, or its address is stale): try another one.
          this.catalog.invalidate();
          const fresh = await this.catalog.routes().catch(() => routes);
          const again = resolveModel(model, fresh);
          // It was stopped meanwhile, and a request starts it: as if the list had said so.
          if (again.kind === "wake" && !rerouted) return reroute(again);
          candidates = again.kind === "ready" ? again.services : candidates;
          continue;
        }
        const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
        if (watched && sse && response.body) {
          streamEnd = "record";
          if (heardEnd) finish(...heardEnd);
          return response;
        }
        watched?.forget();
        if (!response.body) {
          finish("complete", null);
          return response;
        }
        // A whole JSON answer of known, modest size is read at once: cheaper per request than a stream tap.
        if (!sse && Number(response.headers.get("content-length") ?? Number.NaN) <= JSON_USAGE_LIMIT) {
          try {
            const bytes = await response.bytes();
            finish("complete", jsonUsage(bytes));
            return new Response(bytes, { status: response.status, headers: response.headers });
          } catch {
            finish(request.signal.aborted ? "cancelled" : "error", null);
            if (request.signal.aborted) return new Response(null, { status: 499 });
            return proxyError(502, "service_unreachable", `Service ${service.name} broke off its answer.`);
          }
        }
        // A stream's usage chunk may be taken out on the way: its length is not known.
        response.headers.delete("content-length");
        if (sse) streamEnd = "read";
        const tapped = tapUsage(response.body, { sse, stripUsage: sse && stripUsage, onEnd: (usage, how) => finish(how, usage) });
        return new Response(tapped, { status: response.status, headers: response.headers });
      }
    };
    /** Routes the request as `resolved` says: a ready model's services, or its refusal, or a wait for a service started on demand. */
    const answer = (resolved: Resolution): Promise<Response> | Response => {
      switch (resolved.kind) {
        case "unknown": {
          const served = servedModels(routes.filter((route) => mayUse(caller, route.model)));
          return refuse(
            proxyError(404, "model_not_found", `The model '${model}' is not served. Served now: ${served.length ? served.join(", ") : "none"} (svc run starts one).`),
            model,
          );
        }
        case "down":
          return refuse(proxyError(503, "endpoint_unhealthy", `The model '${resolved.repo}' is served only by outside endpoints that are UNHEALTHY (${resolved.reasons.join("; ")}).`, { "retry-after": RETRY_AFTER_SECONDS }), resolved.repo, true);
        case "ambiguous":
          return refuse(proxyError(400, "ambiguous_model", `'${model}' matches several revisions (${resolved.revisions.join(", ")}): give more of the revision.`), model);
        case "starting":
          return refuse(
            proxyError(503, "model_not_ready", `The model '${resolved.repo}' is starting (${resolved.services.map((s) => `${s.name}: ${s.status}`).join(", ")}); try again shortly.`, {
              "retry-after": RETRY_AFTER_SECONDS,
            }),
            resolved.repo,
            true,
          );
        case "wake":
          if (this.lifecycle) return this.wake(request, resolved.service, body, holdOpen(request, server), (handOver) => this.afterWake(model, resolved.repo, forward, handOver), refuse);
          return refuse(proxyError(503, "model_not_ready", `The model '${resolved.repo}' is not serving now; try again shortly.`, { "retry-after": RETRY_AFTER_SECONDS }), resolved.repo, true);
      }
      return forward(resolved.repo, resolved.services);
    };
    /** Once per request: the service chosen turned out stopped, and the fresh list says a request starts it. */
    let rerouted = false;
    const reroute = (again: Resolution) => {
      rerouted = true;
      return answer(again);
    };
    return answer(resolved);
  }

  /** Waits for an on-demand (or renewing) service, starting it if it is stopped, then routes the request: a stream gets keep-alive comments meanwhile. */
  private async wake(
    request: Request,
    service: ServiceRoute,
    body: V1Body,
    closing: Record<string, string>,
    proceed: (handOver: () => void) => Promise<Response>,
    refuse: (response: Response, model: string | null, modelServed?: boolean) => Response,
  ): Promise<Response> {
    const { activity, starts } = this.lifecycle!;
    activity.touch(service.id);
    // The request counts on the service it waits for (the scaler sees a queue at a stopped replica) until it counts where it is sent.
    const waiting = this.balancer.begin(service.id, service.name);
    const ready = starts.ensureServing(service.id, { signal: request.signal });
    ready.catch(waiting);
    const go = () => proceed(waiting).finally(waiting);
    if (body.stream) return waitingStream(ready, go, { ...CONFINED_RESPONSE, ...closing });
    try {
      await ready;
    } catch (error) {
      if (request.signal.aborted) return new Response(null, { status: 499 });
      if (error instanceof NotServing) return refuse(proxyError(503, error.code, error.message, { "retry-after": String(error.retryAfterSeconds) }), service.model, true);
      return refuse(proxyError(502, "service_unreachable", `Service ${service.id} did not start: ${(error as Error).message}`), service.model, true);
    }
    return go();
  }

  /** Once a woken service is HEALTHY: the catalog is read again and the request goes to what now serves the model. */
  private async afterWake(
    model: string,
    repo: string,
    forward: (repo: string, services: ServiceRoute[], handOver: () => void) => Promise<Response>,
    handOver: () => void,
  ): Promise<Response> {
    this.catalog.invalidate();
    const again = resolveModel(model, await this.catalog.routes());
    if (again.kind !== "ready") return proxyError(503, "model_not_ready", `The model '${repo}' started but is not answering yet; try again shortly.`, { "retry-after": RETRY_AFTER_SECONDS });
    return forward(again.repo, again.services, handOver);
  }

  private async models(path: string, caller: Caller): Promise<Response> {
    let routes: ServiceRoute[];
    try {
      routes = await this.catalog.routes();
    } catch {
      return proxyError(503, "service_unavailable", "orchestrator-svc is not answering; try again in a few seconds.", { "retry-after": RETRY_AFTER_SECONDS });
    }
    return modelsAnswer(path, routes.filter((route) => mayUse(caller, route.model)));
  }
}
