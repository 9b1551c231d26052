import type { ResponseBody } from "./model";

const FINAL_EVENTS = new Set(["response.completed", "response.incomplete"]);

/**
 * Passes an engine's own Responses stream (vLLM, SGLang) through unchanged, reading on the way the
 * final response its response.completed (or response.incomplete) event carries, for the store.
 */
export function watchFinalResponse(events: ReadableStream<Uint8Array>, onFinished: (response: ResponseBody) => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let pending = "";
  const read = (text: string) => {
    const data = text
      .split("\n")
      .find((line) => line.startsWith("data:"))
      ?.slice(5)
      .trim();
    if (!data || !data.includes('"response.')) return;
    try {
      const event = JSON.parse(data) as { type?: string; response?: ResponseBody };
      if (event.type && FINAL_EVENTS.has(event.type) && event.response?.id) onFinished(event.response);
    } catch {
      // Not JSON: nothing to keep.
    }
  };
  return events.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(bytes, controller) {
        controller.enqueue(bytes);
        pending += decoder.decode(bytes, { stream: true });
        let cut: number;
        while ((cut = pending.indexOf("\n\n")) >= 0) {
          read(pending.slice(0, cut));
          pending = pending.slice(cut + 2);
        }
      },
      flush() {
        if (pending.trim()) read(pending);
      },
    }),
  );
}
