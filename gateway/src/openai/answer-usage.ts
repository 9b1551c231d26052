import { proxyError } from "../proxy/proxy-error";
import type { V1Outcome } from "./outcome";
import { JSON_USAGE_LIMIT, jsonUsage, tapUsage } from "./usage-tap";

type Finish = (how: V1Outcome["end"], usage: V1Outcome["usage"], streamEnd?: V1Outcome["streamEnd"]) => void;

/**
 * A service's answer on its way to the client, its usage read: a whole JSON answer of known,
 * modest size at once (cheaper per request than a stream tap), anything else as it passes (a
 * stream's usage chunk taken out when `stripUsage`). `finish` is called once its body is over.
 */
export async function passWithUsage(response: Response, serviceName: string, signal: AbortSignal, stripUsage: boolean, finish: Finish): Promise<Response> {
  if (!response.body) {
    finish("complete", null);
    return response;
  }
  const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (!sse && Number(response.headers.get("content-length") ?? Number.NaN) <= JSON_USAGE_LIMIT) {
    try {
      const bytes = await response.bytes();
      finish("complete", jsonUsage(bytes));
      return new Response(bytes, { status: response.status, headers: response.headers });
    } catch {
      finish(signal.aborted ? "cancelled" : "error", null);
      if (signal.aborted) return new Response(null, { status: 499 });
      return proxyError(502, "service_unreachable", `Service ${serviceName} broke off its answer.`);
    }
  }
  // A stream's usage chunk may be taken out on the way: its length is not known.
  response.headers.delete("content-length");
  const tapped = tapUsage(response.body, { sse, stripUsage: sse && stripUsage, onEnd: (usage, how) => finish(how, usage, sse ? "read" : undefined) });
  return new Response(tapped, { status: response.status, headers: response.headers });
}
