/** Hop-by-hop headers (RFC 9110 §7.6.1, and the caller's Host), never passed on; so are those that `Connection` names. */
const HOP_BY_HOP_REQUEST = ["host", "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection"];
const HOP_BY_HOP_RESPONSE = ["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection"];
/** An HTTP field name (RFC 9110 §5.1), which Headers.delete needs. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Deletes the hop-by-hop headers, those the `Connection` header names (usually none: it says
 * keep-alive or close), and `also`. What is there is read once (Bun's toJSON) and only names present
 * are deleted: most answers have none of them, and a delete is a call into Bun each (~0.3 µs of a
 * proxied request's ~25 µs for the ten names).
 */
function dropHeaders(headers: Headers, fixed: readonly string[], also: readonly string[] = []): void {
  const present = headers.toJSON();
  for (const name of fixed) if (name in present) headers.delete(name);
  for (const name of also) if (name in present) headers.delete(name);
  const named = present.connection;
  if (named === undefined || named === "keep-alive" || named === "close") return;
  for (const token of named.split(",")) {
    const name = token.trim();
    if (FIELD_NAME.test(name)) headers.delete(name);
  }
}

export interface RelayOptions {
  /** Request headers that stay here (besides hop-by-hop ones). */
  drop?: string[];
  /** Request headers to set. */
  set?: Record<string, string>;
  /** The request body when it was read already (else the request's own body streams through). */
  body?: ArrayBuffer;
  /** Response headers that stay there. */
  dropFromResponse?: string[];
  /** Response headers to set (or a function of the upstream answer, before any change, that gives them). */
  setOnResponse?: Record<string, string> | ((upstream: Response) => Record<string, string>);
  /** The answer's body is read here (e.g. for its token usage): ask the target for it unencoded. */
  plainBody?: boolean;
}

/**
 * Sends `request` to `target` and returns the answer, streaming both bodies without buffering;
 * a caller that goes away cancels the upstream request. Throws when the target does not answer.
 *
 * Nothing is copied per request: the caller's headers are trimmed in place (the gateway has read
 * what it needs from them by now) and the target's answer is passed on as it came, its body still
 * encoded as the target sent it (so its length and encoding headers stay true), with only the
 * listed headers changed.
 */
export async function relay(request: Request, target: string, options: RelayOptions = {}): Promise<Response> {
  const headers = request.headers;
  dropHeaders(headers, HOP_BY_HOP_REQUEST, options.drop);
  // Without this, fetch would ask for gzip on behalf of a caller that cannot read it.
  if (options.plainBody || !headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
  if (options.set) for (const name in options.set) headers.set(name, options.set[name]!);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const init: BunFetchRequestInit & { duplex: "half" } = {
    method: request.method,
    headers,
    body: hasBody ? (options.body ?? request.body) : undefined,
    redirect: "manual",
    signal: request.signal,
    decompress: false,
    // Bun and undici need this to stream a request body.
    duplex: "half",
  };
  const upstream = await fetch(target, init);
  const set = typeof options.setOnResponse === "function" ? options.setOnResponse(upstream) : options.setOnResponse;
  const responseHeaders = upstream.headers;
  dropHeaders(responseHeaders, HOP_BY_HOP_RESPONSE, options.dropFromResponse);
  if (set) for (const name in set) responseHeaders.set(name, set[name]!);
  return upstream;
}
