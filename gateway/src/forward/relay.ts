/** Hop-by-hop request headers, never passed on. */
const HOP_BY_HOP = ["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];
/** Fetch already decoded the body, so its framing headers no longer describe it. */
const DROPPED_RESPONSE_HEADERS = ["content-encoding", "content-length", "transfer-encoding", "connection"];

export interface RelayOptions {
  /** Request headers that stay here (besides hop-by-hop ones). */
  drop?: string[];
  /** Request headers to set. */
  set?: Record<string, string>;
}

/**
 * Sends `request` to `target` and returns the answer, streaming both bodies without buffering;
 * a caller that goes away cancels the upstream request. Throws when the target does not answer.
 */
export async function relay(request: Request, target: string, options: RelayOptions = {}): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of [...HOP_BY_HOP, ...(options.drop ?? [])]) headers.delete(name);
  for (const [name, value] of Object.entries(options.set ?? {})) headers.set(name, value);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const upstream = await fetch(target, {
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
}
