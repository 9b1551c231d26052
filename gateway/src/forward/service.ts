import { INTERNAL_SECRET_HEADER, type ServiceName } from "@svc/contracts";
import { jsonError } from "@svc/platform";

/** Request headers that stay at the gateway: credentials for the gateway itself and hop-by-hop headers. */
const DROPPED_REQUEST_HEADERS = ["host", "authorization", "cookie", "connection", "keep-alive", "transfer-encoding", "upgrade", INTERNAL_SECRET_HEADER];
/** Fetch already decoded the body, so its framing headers no longer describe it. */
const DROPPED_RESPONSE_HEADERS = ["content-encoding", "content-length", "transfer-encoding", "connection"];

/** Sends the request on to the internal service that owns its path, streaming both ways. */
export async function forward(request: Request, service: ServiceName, baseUrl: string, internalSecret: string): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name);
  headers.set(INTERNAL_SECRET_HEADER, internalSecret);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  try {
    const upstream = await fetch(`${baseUrl}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: "manual",
      signal: request.signal,
      // @ts-expect-error Bun and undici need this to stream a request body
      duplex: "half",
    });
    const responseHeaders = new Headers(upstream.headers);
    for (const name of DROPPED_RESPONSE_HEADERS) responseHeaders.delete(name);
    return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    return jsonError(503, "service_unavailable", `${service} is not answering (it may be restarting); try again in a few seconds. Logs: $SVC_HOME_DIR/logs/${service}.log`);
  }
}
