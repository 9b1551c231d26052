import type { ServiceRoute } from "@svc/contracts";
import { holdOpen, type TimeoutControl } from "../guard/hold-open";
import { NotServing } from "../on-demand/ensure-serving";
import { waitingStream } from "../on-demand/wait-stream";
import { proxyError } from "../proxy/proxy-error";
import type { ServiceCatalog } from "./catalog";
import { CONFINED_RESPONSE, type RoutedRequest } from "./forward";
import type { LeastInFlight } from "./balancer";
import type { V1Lifecycle } from "./lifecycle";
import { resolveModel } from "./resolve";
import { RETRY_AFTER_SECONDS } from "./refusals";

/** Sends the request on once the woken service serves: `handOver` ends its count on the service it waited for. */
type Proceed = (again: { repo: string; services: ServiceRoute[] }, handOver: () => void) => Promise<Response>;

/**
 * The wake stage, for a model whose only service is on demand (or being renewed): the request
 * waits for it, starting it if it is STOPPED, then goes where the model is served once it is HEALTHY.
 * A stream gets keep-alive comments meanwhile (as through /proxy).
 */
export async function wakeAndForward(
  deps: { catalog: ServiceCatalog; balancer: LeastInFlight; lifecycle: V1Lifecycle },
  routed: RoutedRequest,
  server: TimeoutControl,
  repo: string,
  service: ServiceRoute,
  proceed: Proceed,
): Promise<Response> {
  const { request, record } = routed;
  const { activity, starts } = deps.lifecycle;
  activity.touch(service.id);
  // The request counts on the service it waits for (the scaler sees a queue at a stopped replica) until it counts where it is sent.
  const waiting = deps.balancer.begin(service.id, service.name);
  const ready = starts.ensureServing(service.id, { signal: request.signal });
  ready.catch(waiting);
  const go = async () => {
    try {
      deps.catalog.invalidate();
      const again = resolveModel(routed.body.model!, await deps.catalog.routes());
      if (again.kind !== "ready") return record.refuse(proxyError(503, "model_not_ready", `The model '${repo}' started but is not answering yet; try again shortly.`, { "retry-after": RETRY_AFTER_SECONDS }), repo, true);
      return await proceed(again, waiting);
    } catch (error) {
      record.gone();
      throw error;
    } finally {
      waiting();
    }
  };
  if (routed.body.stream) {
    // The stream tells the caller why it did not start; what the request held is let go.
    ready.catch(() => record.gone());
    return waitingStream(ready, go, { ...CONFINED_RESPONSE, ...routed.admitted.headers, ...holdOpen(request, server) });
  }
  try {
    await ready;
  } catch (error) {
    if (request.signal.aborted) return record.gone();
    if (error instanceof NotServing) return record.refuse(proxyError(503, error.code, error.message, { "retry-after": String(error.retryAfterSeconds) }), service.model, true);
    return record.refuse(proxyError(502, "service_unreachable", `Service ${service.id} did not start: ${(error as Error).message}`), service.model, true);
  }
  return go();
}
