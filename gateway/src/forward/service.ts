import { INTERNAL_SECRET_HEADER, type ServiceName } from "@svc/contracts";
import { jsonError } from "@svc/platform";
import { holdOpenIfSlow, type TimeoutControl } from "../guard/hold-open";
import { relay } from "./relay";

/** The caller's credentials are for the gateway; the services get the internal secret instead. */
const GATEWAY_CREDENTIALS = ["authorization", "cookie", "x-svc-token", INTERNAL_SECRET_HEADER];

/**
 * Sends the request on to the internal service that owns its path and streams the answer back.
 * The body (within the API's limit, which the guard checked) is read first; only then may the
 * answer take longer than the idle timeout (a launch that builds an image, followed logs).
 */
export async function forward(request: Request, service: ServiceName, baseUrl: string, internalSecret: string, server?: TimeoutControl): Promise<Response> {
  const url = new URL(request.url);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  // A quick whole answer keeps the caller's connection for its next request; a slow or streamed one lifts the idle timeout.
  const hold = holdOpenIfSlow(request, server);
  try {
    return hold.settle(
      await relay(request, `${baseUrl}${url.pathname}${url.search}`, {
        drop: GATEWAY_CREDENTIALS,
        set: { [INTERNAL_SECRET_HEADER]: internalSecret },
        body,
        setOnResponse: (upstream) => hold.answered(upstream),
      }),
    );
  } catch {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    return hold.settle(jsonError(503, "service_unavailable", `${service} is not answering (it may be restarting); try again in a few seconds. Logs: $SVC_HOME_DIR/logs/${service}.log`));
  }
}
