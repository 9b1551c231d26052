import type { ServiceRoute } from "@svc/contracts";
import { relay } from "../forward/relay";
import type { LazyHold } from "../guard/hold-open";
import { proxyError } from "../proxy/proxy-error";
import { INTERNAL_SECRET_HEADER, REQUEST_ID_HEADER } from "@svc/contracts";
import type { Admitted } from "./admit";
import { passWithUsage } from "./answer-usage";
import type { ServiceCatalog } from "./catalog";
import type { V1Outcome } from "./outcome";
import type { RequestRecord } from "./record";
import type { ReplicaChooser } from "./replica-choice";
import { jsonBytes, type V1Body } from "./request-body";
import type { RequestEndWatch, StreamEnded } from "./request-ends";
import { resolveModel, type Resolution } from "./resolve";
import type { UsageAsk } from "./usage-request";
import type { Plan } from "../responses/service";
import type { V1Lifecycle } from "./lifecycle";

/** The caller's credentials are for the gateway; the service gets its own key instead. */
const DROPPED_REQUEST_HEADERS = ["authorization", "cookie", "x-svc-token", INTERNAL_SECRET_HEADER, REQUEST_ID_HEADER, "content-length"];
/** As through /proxy: a service's answer is a sandboxed document on the UI's origin, without cookies. */
export const CONFINED_RESPONSE = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" };
/** Header naming the service that answered, for whoever needs to tell replicas apart. */
export const SERVICE_HEADER = "x-svc-service";
/** How long a request whose services all failed to answer waits for one to show up at a new address, and how often it looks. */
const MOVE_WAIT_MS = 10_000;
const MOVE_POLL_MS = 250;

/** One routed request, as the stages after admission see it. */
export interface RoutedRequest {
  request: Request;
  path: string;
  body: V1Body;
  record: RequestRecord;
  hold: LazyHold;
  admitted: Admitted;
  usage: UsageAsk;
  /** The Responses API's body for the service chosen, or its refusal. */
  plan?: Plan;
  /** The request's prompt prefix, read only when a prefix-routed deployment is chosen among. */
  prefix(): string | undefined;
  /** Once per request: the service chosen turned out stopped, and the fresh list says a request starts it. */
  reroute?(again: Resolution): Promise<Response> | Response;
}

export interface ForwardDeps {
  catalog: ServiceCatalog;
  chooser: ReplicaChooser;
  ends: RequestEndWatch;
  lifecycle?: V1Lifecycle;
  /** Whether a stream's end at the service is wanted the moment it passes (requests wait for a slot there): it is then read on its way, not learned later from the runtime's records. */
  endsAtOnce?: (serviceId: string) => boolean;
}

/**
 * The choose and relay stages: the request goes to the least busy (or its prefix's) replica with
 * the service's own API key, through the same relay /proxy uses (streams unbuffered, a caller that
 * goes away cancels the upstream request). A replica that does not take it (stopped meanwhile, or
 * at a stale address) is tried once at each address; while none is left, the request waits up to
 * MOVE_WAIT_MS for one to show up at a new address (a renewal's handover, new tunnels after a restart).
 * `handOver`: called once this request counts on the service chosen (a woken request stops counting on the one it waited for).
 */
export async function forwardToReplicas(deps: ForwardDeps, routed: RoutedRequest, repo: string, services: ServiceRoute[], routes: ServiceRoute[], handOver?: () => void): Promise<Response> {
  const { request, record } = routed;
  const model = routed.body.model!;
  const tried = new Set<string>();
  const untried = (route: ServiceRoute) => !tried.has(`${route.id} ${route.url}`);
  const moveDeadline = Date.now() + MOVE_WAIT_MS;
  let candidates = services;
  for (;;) {
    let service = deps.chooser.choose(repo, candidates.filter(untried), routed.prefix);
    // An outside endpoint does not move: one that did not answer is reported at once.
    const outsideOnly = candidates.every((route) => route.outside);
    while (!service && !outsideOnly && Date.now() < moveDeadline && !request.signal.aborted) {
      await Bun.sleep(MOVE_POLL_MS);
      deps.catalog.invalidate();
      const again = resolveModel(model, await deps.catalog.routes().catch(() => routes));
      if (again.kind === "wake" && routed.reroute) return routed.reroute(again);
      if (again.kind !== "ready") break;
      candidates = again.services;
      service = deps.chooser.choose(repo, candidates.filter(untried), routed.prefix);
    }
    if (!service) {
      if (request.signal.aborted) return record.gone();
      const names = [...tried].map((key) => key.split(" ")[0]);
      if (outsideOnly) return record.refuse(proxyError(502, "endpoint_unreachable", `No outside endpoint of '${repo}' answered (${names.map((name) => name.replace(/^endpoint:/, "")).join(", ")}); svc endpoint ls shows their health.`), repo, true);
      return record.refuse(proxyError(502, "service_unreachable", `No service of '${repo}' answered (tried ${names.join(", ")}); svc ls shows their state.`), repo, true);
    }
    const planned = routed.plan?.(service);
    if (planned instanceof Response) return record.refuse(planned, repo, true);
    tried.add(`${service.id} ${service.url}`);
    const answer = await relayTo(deps, routed, repo, service, planned, handOver);
    if (answer) return answer;
    // Nothing started there (it stopped meanwhile, or its address is stale): try another one.
    deps.catalog.invalidate();
    const again = resolveModel(model, await deps.catalog.routes().catch(() => routes));
    // It was stopped meanwhile, and a request starts it: as if the list had said so.
    if (again.kind === "wake" && routed.reroute) return routed.reroute(again);
    candidates = again.kind === "ready" ? again.services : candidates;
  }
}

/** Sends the request to `service`; undefined when it did not take it (nothing started there). */
async function relayTo(
  deps: ForwardDeps,
  routed: RoutedRequest,
  repo: string,
  service: ServiceRoute,
  planned: { path: string; json: unknown } | undefined,
  handOver: (() => void) | undefined,
): Promise<Response | undefined> {
  const { request, record, usage, hold } = routed;
  const done = deps.chooser.balancer.begin(service.id, service.name);
  handOver?.();
  if (!service.outside) deps.lifecycle?.activity.touch(service.id);
  // Its end may be heard before its answer's headers are read.
  let response: Response | undefined;
  let heardEnd: Parameters<StreamEnded> | undefined;
  let streamEnd: V1Outcome["streamEnd"];
  const finish = (how: V1Outcome["end"], tokens: V1Outcome["usage"], end: V1Outcome["streamEnd"] = streamEnd) => {
    done();
    // Its end is activity too: the idle clock starts when a long stream is over, not when it began.
    if (!service.outside) deps.lifecycle?.activity.touch(service.id);
    record.answered({ status: response!.status, model: repo, modelServed: true, serviceId: service.id, serviceName: service.name, end: how, usage: tokens, streamEnd: end });
  };
  const watched = usage.stream && !deps.endsAtOnce?.(service.id) ? deps.ends.watch(service, (...end) => (response ? finish(...end) : (heardEnd = end))) : undefined;
  const key: Record<string, string> = service.apiKey ? { authorization: `Bearer ${service.apiKey}` } : {};
  try {
    response = await relay(request, `${service.url}${planned?.path ?? routed.path}`, {
      drop: DROPPED_REQUEST_HEADERS,
      set: watched ? { ...key, ...watched.header } : key,
      body: planned ? jsonBytes(planned.json) : usage.strip && !watched ? usage.askingBody() : routed.body.bytes,
      // Its usage is read here: plain bytes.
      plainBody: true,
      dropFromResponse: ["set-cookie"],
      setOnResponse: (upstream) => ({ ...CONFINED_RESPONSE, ...routed.admitted.headers, ...hold.answered(upstream), [SERVICE_HEADER]: service.id }),
    });
  } catch {
    watched?.forget();
    done();
    if (request.signal.aborted) return record.gone();
    return undefined;
  }
  const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (watched && sse && response.body) {
    streamEnd = "record";
    if (heardEnd) finish(...heardEnd);
    return response;
  }
  watched?.forget();
  return passWithUsage(response, service.name, request.signal, usage.strip, finish);
}
