import type { ServiceRoute } from "@svc/contracts";
import { holdOpenIfSlow, type LazyHold, type TimeoutControl } from "../guard/hold-open";
import { proxyError } from "../proxy/proxy-error";
import { requestUrl } from "../guard/request-url";
import type { Plan, ResponsesApi } from "../responses/service";
import { ADMIT_ALL, type Admission } from "./admit";
import { mayUse, type Authenticate, type Caller } from "./caller";
import type { ServiceCatalog } from "./catalog";
import { forwardToReplicas, type ForwardDeps, type RoutedRequest } from "./forward";
import type { V1Lifecycle } from "./lifecycle";
import { modelsAnswer } from "./models-list";
import type { OutcomeSink } from "./outcome";
import { ROUTED_ENDPOINTS } from "./paths";
import { promptPrefix } from "./prompt-prefix";
import { RequestRecord } from "./record";
import { catalogDown, notServed, RETRY_AFTER_SECONDS } from "./refusals";
import { ReplicaChooser } from "./replica-choice";
import type { LeastInFlight } from "./balancer";
import { BodyError, readV1Body, type V1Body } from "./request-body";
import { RequestEndWatch } from "./request-ends";
import { resolveModel, type Resolution } from "./resolve";
import { NO_WAIT, type SlotGate } from "./slot-gate";
import { usageAsk } from "./usage-request";
import { wakeAndForward } from "./wake";

export type { V1Lifecycle } from "./lifecycle";
export { SERVICE_HEADER } from "./forward";

export interface OpenAiRouterOptions {
  lifecycle?: V1Lifecycle;
  responses?: ResponsesApi;
  ends?: RequestEndWatch;
  /** The admit stage: keys' limits, budgets and tiers (default: every request let in). */
  admission?: Admission;
  /** The wait stage: fair share of a saturated model (default: no wait). */
  slots?: SlotGate;
  /** See ForwardDeps.endsAtOnce. */
  endsAtOnce?: (serviceId: string) => boolean;
  /** Chooses replicas and counts their requests in flight (given when the wait stage needs its counts). */
  chooser?: ReplicaChooser;
}

/**
 * One OpenAI base URL for every model. A routed /v1 request takes these stages, each a module of
 * its own: authenticate (the caller: keys/v1-auth), read its body (request-body), admit (the key's
 * limits: admit), resolve its `model` (resolve, refusals), wake an on-demand service (wake), wait
 * for a slot of a saturated model (slot-gate), choose a replica and relay (forward, answer-usage),
 * record (record: usage, metrics, the admission's settling).
 */
export class OpenAiRouter {
  readonly chooser: ReplicaChooser;
  readonly balancer: LeastInFlight;
  readonly ends: RequestEndWatch;
  private readonly admission: Admission;
  private readonly slots: SlotGate;
  private readonly forwarding: ForwardDeps;

  constructor(
    private readonly catalog: ServiceCatalog,
    private readonly authenticate: Authenticate,
    private readonly sink: OutcomeSink,
    private readonly options: OpenAiRouterOptions = {},
  ) {
    this.chooser = options.chooser ?? new ReplicaChooser();
    this.balancer = this.chooser.balancer;
    this.ends = options.ends ?? new RequestEndWatch();
    this.admission = options.admission ?? ADMIT_ALL;
    this.slots = options.slots ?? NO_WAIT;
    this.forwarding = { catalog, chooser: this.chooser, ends: this.ends, lifecycle: options.lifecycle, endsAtOnce: options.endsAtOnce };
  }

  async handle(request: Request, server?: TimeoutControl): Promise<Response> {
    const started = performance.now();
    const caller = this.authenticate(request);
    if (caller instanceof Response) return caller;
    const path = requestUrl(request).pathname.replace(/\/+$/, "");

    if (request.method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))) return this.models(path, caller);
    if (this.options.responses?.handles(path)) return this.respond(request, server, caller, path, started, this.options.responses);
    if (!ROUTED_ENDPOINTS.has(path)) {
      return proxyError(404, "unknown_url", `Unknown endpoint ${request.method} ${path}: the gateway's /v1 routes ${[...ROUTED_ENDPOINTS].join(", ")} (POST) and /v1/models (GET).`);
    }
    if (request.method !== "POST") return proxyError(405, "method_not_allowed", `${path} takes POST.`, { allow: "POST" });

    const hold = holdOpenIfSlow(request, server);
    return hold.settle(await this.route(request, server, new RequestRecord(this.sink, caller, path, started), hold));
  }

  /** /v1/responses…: what the Responses API sends to a model is routed as every /v1 request is; its own refusals of a POST are recorded too. */
  private async respond(request: Request, server: TimeoutControl, caller: Caller, path: string, started: number, responses: ResponsesApi): Promise<Response> {
    const hold = holdOpenIfSlow(request, server);
    const record = new RequestRecord(this.sink, caller, path, started);
    let routed = false;
    const answer = await responses.handle(request, caller, path, (body, plan) => {
      routed = true;
      return this.route(request, server, record, hold, { body, plan });
    });
    if (!routed && request.method === "POST") record.answered({ status: answer.status });
    return hold.settle(answer);
  }

  /** A routed POST, from reading its body to the service's answer (or the refusal). `prepared`: a body the Responses API read already, and where it goes on the service chosen. */
  private async route(request: Request, server: TimeoutControl, record: RequestRecord, hold: LazyHold, prepared?: { body: V1Body; plan: Plan }): Promise<Response> {
    let body: V1Body;
    try {
      body = prepared?.body ?? (await readV1Body(request));
    } catch (error) {
      if (error instanceof BodyError) return record.refuse(proxyError(error.status, error.code, error.message), null);
      if (request.signal.aborted) return record.gone();
      throw error;
    }
    if (!body.model) return record.refuse(proxyError(400, "model_required", "Name the model in the request's `model` field: a repo id (owner/name), owner/name@revision or a service name; GET /v1/models lists them."), null);
    const model = body.model;

    const admitted = this.admission.admit(record.caller, record.endpoint, body);
    if (admitted instanceof Response) return record.refuse(admitted, model);
    record.whenOver((outcome) => admitted.settle(outcome));
    record.carried = admitted.headers;

    let routes: ServiceRoute[];
    try {
      routes = await this.catalog.routes();
    } catch {
      return record.refuse(catalogDown(), model);
    }
    let resolved = resolveModel(model, routes);
    // The list may be a moment behind the orchestrator (a service that just became HEALTHY, or was just launched): a refusal is confirmed on a fresh one.
    if (resolved.kind === "starting" || resolved.kind === "unknown") {
      routes = await this.catalog.fresh().catch(() => routes);
      resolved = resolveModel(model, routes);
    }
    if ((resolved.kind === "ready" || resolved.kind === "starting" || resolved.kind === "wake") && !mayUse(record.caller, resolved.repo)) {
      return record.refuse(proxyError(403, "model_not_allowed", `This API key may not use '${resolved.repo}'.`), resolved.repo, true);
    }

    let prefixRead: { text: string | undefined } | undefined;
    const routed: RoutedRequest = {
      request,
      path: record.endpoint,
      body,
      record,
      hold,
      admitted,
      usage: usageAsk(record.endpoint, body, !!prepared),
      plan: prepared?.plan,
      prefix: () => (prefixRead ??= { text: promptPrefix(body.json) }).text,
    };
    const answer = (resolution: Resolution): Promise<Response> | Response => {
      if (resolution.kind === "ready") return this.waitAndForward(routed, resolution.repo, resolution.services, routes);
      if (resolution.kind !== "wake") {
        const refusal = notServed(resolution, model, routes, record.caller);
        return record.refuse(refusal.response, refusal.model, refusal.served);
      }
      if (!this.options.lifecycle) {
        return record.refuse(proxyError(503, "model_not_ready", `The model '${resolution.repo}' is not serving now; try again shortly.`, { "retry-after": RETRY_AFTER_SECONDS }), resolution.repo, true);
      }
      const deps = { catalog: this.catalog, balancer: this.balancer, lifecycle: this.options.lifecycle };
      return wakeAndForward(deps, routed, server, resolution.repo, resolution.service, (again, handOver) => forwardToReplicas(this.forwarding, routed, again.repo, again.services, routes, handOver));
    };
    routed.reroute = (again) => {
      routed.reroute = undefined;
      return answer(again);
    };
    return answer(resolved);
  }

  /** The wait stage (fair share of a saturated model), then a replica. */
  private async waitAndForward(routed: RoutedRequest, repo: string, services: ServiceRoute[], routes: ServiceRoute[]): Promise<Response> {
    // A request naming one service (or a revision) waits in its model's queue, and then goes only where it asked.
    const narrowed = routed.body.model !== repo;
    const whole = narrowed ? resolveModel(repo, routes) : undefined;
    const modelServices = whole?.kind === "ready" ? whole.services : services;
    const waited = this.slots.wait(repo, modelServices, routed.record.caller, routed.admitted.tier, routed.request.signal);
    const result = waited && (await waited);
    if (result instanceof Response) return routed.record.refuse(result, repo, true);
    if (routed.request.signal.aborted) return routed.record.gone();
    // Nothing in between: a request let go from the queue counts on its replica before any other takes the slot.
    return forwardToReplicas(this.forwarding, routed, repo, narrowed || !result ? services : result, routes);
  }

  private async models(path: string, caller: Caller): Promise<Response> {
    let routes: ServiceRoute[];
    try {
      routes = await this.catalog.routes();
    } catch {
      return catalogDown();
    }
    return modelsAnswer(path, routes, (model) => mayUse(caller, model));
  }
}
