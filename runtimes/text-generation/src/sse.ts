import type { RequestEnd, RequestEndKind } from "@svc/contracts/request-ends";
import type { EndReporter } from "@svc/runtime-common";
import { CoalescingWriter } from "./coalescing-writer";

/** Sends SSE events: `send(object)` at once; `send.piece(json)`, a token's chunk already JSON, coalesced. */
export interface SseSend {
  (event: unknown): void;
  piece: (json: string) => void;
}

/**
 * A Server-Sent Events response fed by `produce`, which sends JSON events (and gives the answer's
 * tokens); `data: [DONE]` ends it. `abort` fires when the client goes away, so the producer can
 * stop generating. `ended` hears how it ended before `[DONE]` goes out, after a turn of the event
 * loop, so whoever asked for the record (the gateway's poll) has it before the stream's end.
 *
 * The producer starts at once (the engine is not kept waiting for Bun to ask for the body), and the
 * events go out through Bun's direct stream, straight into the socket's buffer. Every token stays
 * its own event; a fast engine's events are gathered into fewer socket writes (see CoalescingWriter).
 */
export function sseResponse(produce: (send: SseSend, abort: AbortSignal) => Promise<RequestEnd["usage"] | void>, ended?: EndReporter): Response {
  const abort = new AbortController();
  let sink: ReadableStreamDirectController | undefined;
  let early = "";
  const writer = new CoalescingWriter((text) => {
    if (abort.signal.aborted) return;
    if (sink) sink.write(text);
    else early += text;
  });
  const send = ((event: unknown) => writer.writeNow(`data: ${JSON.stringify(event)}\n\n`)) as SseSend;
  send.piece = (json) => writer.write(`data: ${json}\n\n`);

  const produced = (async () => {
    let usage: RequestEnd["usage"] = null;
    let end: RequestEndKind = "complete";
    try {
      usage = (await produce(send, abort.signal)) ?? null;
    } catch (error) {
      end = "error";
      const body = typeof (error as { toBody?: unknown })?.toBody === "function" ? (error as { toBody: () => unknown }).toBody() : null;
      if (!body) console.error("[error] streamed generation failed:", error);
      send(body ?? { error: { message: "The inference engine failed on this request; see the service log.", type: "server_error", param: null, code: null } });
    }
    if (ended) {
      if (abort.signal.aborted) end = "cancelled";
      ended(end, end === "complete" ? usage : null);
      await new Promise((resolve) => setImmediate(resolve));
    }
    writer.writeNow("data: [DONE]\n\n");
  })();

  const source: Bun.DirectUnderlyingSource = {
    type: "direct",
    async pull(controller) {
      sink = controller;
      if (early) controller.write(early);
      early = "";
      await produced;
      if (!abort.signal.aborted) controller.close();
    },
    cancel() {
      abort.abort();
    },
  };
  // The DOM typings in use know nothing of Bun's direct streams.
  return new Response(new ReadableStream(source as unknown as UnderlyingDefaultSource), {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" },
  });
}

/**
 * The JSON of `event` as a function of its one string field set to `TEXT`: per token only the
 * text is encoded, not the whole chunk again. Gives the same bytes as `JSON.stringify`.
 */
export function jsonWithText(event: object): (text: string) => string {
  const json = JSON.stringify(event);
  const marker = JSON.stringify(TEXT);
  const at = json.lastIndexOf(marker);
  if (at === -1) throw new Error("jsonWithText: no field of the event is set to TEXT");
  const head = json.slice(0, at);
  const tail = json.slice(at + marker.length);
  return (text) => head + JSON.stringify(text) + tail;
}

/** The placeholder value for `jsonWithText`. */
export const TEXT = "\u0000text\u0000";
