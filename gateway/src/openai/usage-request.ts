import { USAGE_STREAM_ENDPOINTS } from "./paths";
import { jsonBytes, type V1Body } from "./request-body";

/** How a request's usage is learned: its upstream body, and whether a stream's usage chunk is asked for here and kept from the client. */
export interface UsageAsk {
  /** A stream of an endpoint whose end svc's runtime records (RequestEndWatch), or whose final chunk can carry usage. */
  stream: boolean;
  /** The client did not ask for the usage chunk: it is asked for here and taken out on the way. */
  strip: boolean;
  /** The body asking for the usage chunk (made once, when needed). */
  askingBody(): ArrayBuffer;
}

/**
 * A stream whose end svc's runtime records passes as it is; another one reports usage in a final
 * chunk only when asked: ask for it, and keep it from a client that did not. A body prepared by the
 * Responses API is its own.
 */
export function usageAsk(path: string, body: V1Body, prepared: boolean): UsageAsk {
  const stream = !prepared && body.stream && !!body.json && USAGE_STREAM_ENDPOINTS.has(path);
  let strip = false;
  if (stream) {
    const options = body.json!.stream_options;
    const asked = !!options && typeof options === "object" && (options as { include_usage?: unknown }).include_usage === true;
    strip = !asked && (options === undefined || options === null || typeof options === "object");
  }
  let asking: ArrayBuffer | undefined;
  return {
    stream,
    strip,
    askingBody: () => (asking ??= jsonBytes({ ...body.json, stream_options: { ...((body.json!.stream_options as object) ?? {}), include_usage: true } })),
  };
}
