/** Hop-by-hop request headers, never passed on. */
const HOP_BY_HOP = ["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];
/** Fetch already decoded the body, so its framing headers no longer describe it. */
const DROPPED_RESPONSE_HEADERS = ["content-encoding", "content-length", "transfer-encoding", "connection"];

export interface RelayOptions {
  /** Request headers that stay here (besides hop-by-hop ones). */
  drop?: string[];
  /** Request headers to set. */
  set?: Record<string, string>;
  /** The request body when it was read already (else the request's own body streams through). */
  body?: ArrayBuffer;
  /** Response headers that stay there. */
  dropFromResponse?: string[];
  /** Response headers to set (or a function of the upstream answer that gives them). */
  setOnResponse?: Record<string, string> | ((upstream: Response) => Record<string, string>);
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
    body: hasBody ? (options.body ?? request.body) : undefined,
    redirect: "manual",
    signal: request.signal,
    // @ts-expect-error Bun and undici need this to stream a request body
    duplex: "half",
  });
  const responseHeaders = new Headers(upstream.headers);
  for (const name of [...DROPPED_RESPONSE_HEADERS, ...(options.dropFromResponse ?? [])]) responseHeaders.delete(name);
  const set = typeof options.setOnResponse === "function" ? options.setOnResponse(upstream) : (options.setOnResponse ?? {});
  for (const [name, value] of Object.entries(set)) responseHeaders.set(name, value);
  return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
}
