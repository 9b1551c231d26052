/** Tokens of one request, as the answer's `usage` gives them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** How an answer's body ended: read to its end, given up by the caller, or broken upstream. */
export type BodyEnd = "complete" | "cancelled" | "error";

export interface TapOptions {
  /** The body is Server-Sent Events (a stream), else JSON (or text, which has no usage). */
  sse: boolean;
  /** The gateway asked for the final usage chunk itself: it is read here and not passed on. */
  stripUsage: boolean;
  onEnd: (usage: TokenUsage | null, end: BodyEnd) => void;
}

/** Largest JSON answer whose `usage` is read (embeddings of many inputs are larger: no usage then, the answer passes anyway). */
export const JSON_USAGE_LIMIT = 4 * 1024 * 1024;

/** How a chunk's JSON ends whose last field is a null usage (the runtimes' and vLLM's compact JSON). */
const NULL_USAGE = ',"usage":null}';
/** The end of an event whose last field is a null usage, as bytes (what a stream's token chunks end with when the usage was asked for). */
const NULL_USAGE_EVENT_END = Buffer.from(`${NULL_USAGE}\n\n`);
/** What that end becomes when the usage the gateway asked for is taken out. */
const EVENT_END = Buffer.from("}\n\n");
const EMPTY = new Uint8Array(0);

type UsageFields = { prompt_tokens?: unknown; completion_tokens?: unknown; input_tokens?: unknown; output_tokens?: unknown };

/** The `usage` of an answer or chunk: chat's and completions' (prompt/completion tokens), or a Responses answer's or final event's (input/output tokens). */
export function usageOf(value: unknown): TokenUsage | null {
  const answer = value as { usage?: UsageFields; response?: { usage?: UsageFields } } | null;
  const usage = answer?.usage ?? answer?.response?.usage;
  if (!usage) return null;
  const prompt = usage.prompt_tokens ?? usage.input_tokens;
  const completion = usage.completion_tokens ?? usage.output_tokens;
  if (typeof prompt !== "number") return null;
  return { promptTokens: prompt, completionTokens: typeof completion === "number" ? completion : 0 };
}

/** The `usage` of a whole JSON answer; null when it has none or is not JSON. */
export function jsonUsage(bytes: Uint8Array): TokenUsage | null {
  try {
    return usageOf(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return null;
  }
}

/**
 * Passes an answer's body through unchanged and unbuffered, reading its token usage on the way:
 * a JSON answer's `usage`, or a stream's final usage chunk. When the gateway asked for that chunk
 * (the client did not), it is taken out, and `usage: null` with it from the other chunks, so the
 * client gets exactly the stream it asked for. `onEnd` is called once, however the body ends.
 */
export function tapUsage(body: ReadableStream<Uint8Array>, { sse, stripUsage, onEnd }: TapOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  /** The bytes of an event not complete yet (SSE streams). */
  let pending: Buffer = Buffer.alloc(0);
  let usage: TokenUsage | null = null;
  const json: Uint8Array[] = [];
  let jsonBytes = 0;
  let ended = false;
  const end = (how: BodyEnd) => {
    if (ended) return;
    ended = true;
    if (!sse && how === "complete" && jsonBytes <= JSON_USAGE_LIMIT) usage = jsonUsage(Buffer.concat(json));
    onEnd(usage, how);
  };

  /** One SSE event: read its usage; the text to pass on ("" to drop it). */
  const event = (text: string): string => {
    if (!text.includes('"usage"')) return `${text}\n\n`;
    // A Responses stream names each event on an `event:` line before its data.
    const data = text.startsWith("data: ") ? text.slice(6) : text.split("\n").find((line) => line.startsWith("data: "))?.slice(6);
    if (data === undefined) return `${text}\n\n`;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data);
    } catch {
      return `${text}\n\n`;
    }
    usage = usageOf(chunk) ?? usage;
    if (!stripUsage) return `${text}\n\n`;
    if (chunk.usage && Array.isArray(chunk.choices) && chunk.choices.length === 0) return "";
    if (chunk.usage === null) {
      delete chunk.usage;
      return `data: ${JSON.stringify(chunk)}\n\n`;
    }
    return `${text}\n\n`;
  };

  /**
   * What goes on for `bytes` read upstream: the same bytes, the events as rewritten, or nothing yet.
   * Events are found and trimmed as bytes (their markers are ASCII, which no multi-byte UTF-8
   * character contains): only an event that still names a usage once the null ones are off (the
   * final usage chunk) is decoded and read as JSON.
   */
  const passOn = (bytes: Uint8Array): Uint8Array | string => {
    if (!sse) {
      jsonBytes += bytes.byteLength;
      if (jsonBytes <= JSON_USAGE_LIMIT) json.push(bytes);
      return bytes;
    }
    const read = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const data = pending.length === 0 ? read : Buffer.concat([pending, read]);
    const last = data.lastIndexOf("\n\n");
    // Nothing is changed on the way unless the usage is taken out: the bytes go on now, the events are read once complete.
    if (last < 0) {
      pending = pending.length === 0 ? Buffer.from(data) : data;
      return stripUsage ? EMPTY : bytes;
    }
    const complete = data.subarray(0, last + 2);
    pending = last + 2 === data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(last + 2));
    // Most events have no usage, or a null one as their last field (every token's when the usage was asked for): that comes off in one pass.
    const light = withoutNullUsages(complete);
    if (light.includes('"usage"')) {
      const out = light.toString("utf8").slice(0, -2).split("\n\n").map(event).join("");
      return stripUsage ? out : bytes;
    }
    return stripUsage ? light : bytes;
  };

  let cancelled = false;
  // A direct stream: Bun's server takes each write as it comes, without a queue and a promise per chunk between this and the socket.
  const source: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: "direct",
    async pull(controller) {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        try {
          read = await reader.read();
        } catch (error) {
          if (cancelled) return;
          end("error");
          controller.close(error as Error);
          return;
        }
        // Cancelled meanwhile (the caller went away): the reader's end is not the body's.
        if (cancelled) return;
        if (read.done) {
          if (sse && stripUsage && pending.length > 0) controller.write(pending);
          end("complete");
          controller.close();
          return;
        }
        const out = passOn(read.value);
        if (out.length === 0) continue;
        // Paced by the caller's socket: while it is full, the write's promise holds the next read upstream.
        const written = controller.write(out);
        if (written instanceof Promise) await written;
      }
    },
    cancel(reason) {
      cancelled = true;
      end("cancelled");
      return reader.cancel(reason);
    },
  };
  return new ReadableStream(source as unknown as UnderlyingDefaultSource<Uint8Array>);
}

/** `events` with every null usage that ends an event taken off: the same bytes when there is none. */
function withoutNullUsages(events: Buffer): Buffer {
  let at = events.indexOf(NULL_USAGE_EVENT_END);
  if (at < 0) return events;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(events.subarray(from, at), EVENT_END);
    from = at + NULL_USAGE_EVENT_END.length;
    at = events.indexOf(NULL_USAGE_EVENT_END, from);
  }
  parts.push(events.subarray(from));
  return Buffer.concat(parts);
}
