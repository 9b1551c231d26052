/**
 * A Server-Sent Events response fed by `produce`, which sends JSON events; `data: [DONE]` ends it.
 * `abort` fires when the client goes away, so the producer can stop generating.
 */
export function sseResponse(produce: (send: (event: unknown) => void, abort: AbortSignal) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: unknown) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
      };
      try {
        await produce(send, abort.signal);
      } catch (error) {
        const body = typeof (error as { toBody?: unknown })?.toBody === "function" ? (error as { toBody: () => unknown }).toBody() : null;
        if (!body) console.error("[error] streamed generation failed:", error);
        send(body ?? { error: { message: "The inference engine failed on this request; see the service log.", type: "server_error", param: null, code: null } });
      }
      if (!abort.signal.aborted) {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" },
  });
}
