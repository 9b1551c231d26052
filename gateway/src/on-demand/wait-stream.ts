import type { ServiceRecord } from "@svc/contracts";
import { NotServing } from "./ensure-serving";

/** How often a streamed request that waits for its service gets a keep-alive comment. */
export const KEEPALIVE_MS = 3000;
export const WAITING_COMMENT = ": waiting for the service to start\n\n";

/** Whether a JSON request body asks for a streamed answer ("stream": true). */
export function asksForStream(body: ArrayBuffer | undefined): boolean {
  if (!body || body.byteLength === 0) return false;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { stream?: unknown };
    return parsed?.stream === true;
  } catch {
    return false;
  }
}

/** An error as an SSE event in OpenAI's error shape (what OpenAI's clients raise from a stream). */
export function errorEvent(message: string, code: string): string {
  return `data: ${JSON.stringify({ error: { message, type: "server_error", param: null, code } })}\n\n`;
}

/**
 * The answer to a streamed request whose service is not serving yet: an SSE stream that sends
 * WAITING_COMMENT at once and every KEEPALIVE_MS (so proxies and clients do not time out), then,
 * once `ready` gives the service, the service's own stream from `answer`. The status (200) is sent
 * before the wait ends, so a start that fails or times out arrives as an error event.
 */
export function waitingStream(ready: Promise<ServiceRecord>, answer: (record: ServiceRecord) => Promise<Response>, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  let timer: Timer | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      // The caller may go away at any point: what is sent after that is dropped.
      const send = (chunk: string | Uint8Array) => {
        try {
          controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
        } catch {
          clearInterval(timer);
        }
      };
      const comment = () => send(WAITING_COMMENT);
      comment();
      timer = setInterval(comment, KEEPALIVE_MS);
      try {
        const record = await ready;
        clearInterval(timer);
        const upstream = await answer(record);
        if (!upstream.ok || !upstream.body) {
          const text = await upstream.text();
          send(text.startsWith("{") ? `data: ${text.replace(/\n/g, " ")}\n\n` : errorEvent(text || `the service answered ${upstream.status}`, "service_error"));
        } else {
          const reader = upstream.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            send(value);
          }
        }
      } catch (error) {
        clearInterval(timer);
        if (error instanceof NotServing) send(errorEvent(error.message, error.code));
        else if (!(error instanceof DOMException && error.name === "AbortError")) send(errorEvent((error as Error)?.message ?? String(error), "service_unreachable"));
      }
      try {
        controller.close();
      } catch {
        // The caller went away meanwhile.
      }
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...headers } });
}
