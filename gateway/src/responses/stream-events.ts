import { callItem, finishedResponse, messageItem, newId, type ChatTurn } from "./from-chat";
import type { ResponseBody } from "./model";

interface ChatChunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: string | null }>;
  usage?: ChatTurn["usage"];
  error?: { message?: string };
}

interface OpenCall {
  id: string;
  outputIndex: number;
  call: ChatTurn["toolCalls"][number];
}

/**
 * Turns a chat-completions stream (SSE, with its final usage chunk) into the Responses API's typed
 * events, in OpenAI's order: response.created, response.in_progress, then per output item
 * output_item.added, (a message's) content_part.added, output_text.delta… / (a function call's)
 * function_call_arguments.delta…, their .done events, output_item.done, and response.completed
 * (response.incomplete when cut at max_output_tokens, response.failed when the runtime broke
 * off). Every event has its `sequence_number`. `onFinished` gets the final response, as the last
 * event carries it (not when the stream failed or the caller went away).
 */
export function responseEvents(chat: ReadableStream<Uint8Array>, started: ResponseBody, onFinished: (response: ResponseBody) => void): ReadableStream<Uint8Array> {
  const reader = chat.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let sequence = 0;
  let pending = "";
  const order: string[] = [];
  let message: { id: string; outputIndex: number; text: string } | undefined;
  const calls = new Map<number, OpenCall>();
  const turn: ChatTurn = { content: null, toolCalls: [], finishReason: null, usage: null };
  /** The events are all out (the chat stream said [DONE], or failed); its end is still read, so usage sees it end whole. */
  let finished = false;
  let ended = false;

  const sse = (type: string, fields: Record<string, unknown>) => encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  const out: Uint8Array[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => out.push(sse(type, fields));

  const openMessage = () => {
    if (message) return message;
    message = { id: newId("msg"), outputIndex: order.length, text: "" };
    order.push(message.id);
    emit("response.output_item.added", { output_index: message.outputIndex, item: messageItem(message.id, "", "in_progress") });
    emit("response.content_part.added", { item_id: message.id, output_index: message.outputIndex, content_index: 0, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
    return message;
  };

  const read = (chunk: ChatChunk) => {
    const choice = chunk.choices?.[0];
    if (chunk.usage) turn.usage = chunk.usage;
    if (!choice) return;
    const content = choice.delta?.content;
    if (typeof content === "string") {
      const open = openMessage();
      if (content) {
        open.text += content;
        emit("response.output_text.delta", { item_id: open.id, output_index: open.outputIndex, content_index: 0, delta: content, logprobs: [] });
      }
    }
    for (const delta of choice.delta?.tool_calls ?? []) {
      let open = calls.get(delta.index);
      if (!open) {
        open = { id: newId("fc"), outputIndex: order.length, call: { id: delta.id ?? newId("fc"), name: delta.function?.name ?? "", arguments: "" } };
        calls.set(delta.index, open);
        order.push(open.id);
        emit("response.output_item.added", { output_index: open.outputIndex, item: callItem(open.id, open.call, "in_progress") });
      }
      const part = delta.function?.arguments;
      if (part) {
        open.call.arguments += part;
        emit("response.function_call_arguments.delta", { item_id: open.id, output_index: open.outputIndex, delta: part });
      }
    }
    if (choice.finish_reason) turn.finishReason = choice.finish_reason;
  };

  const finish = () => {
    if (!message && calls.size === 0) openMessage();
    const ordered = [...calls.values()].sort((a, b) => a.outputIndex - b.outputIndex);
    turn.content = message ? message.text : null;
    turn.toolCalls = ordered.map((open) => open.call);
    const final = finishedResponse(started, turn, { message: message?.id ?? "", calls: ordered.map((open) => open.id) });
    final.output.sort((a, b) => order.indexOf(a.id!) - order.indexOf(b.id!));
    final.output.forEach((item, outputIndex) => {
      if (item.type === "message") {
        const text = message!.text;
        emit("response.output_text.done", { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
        emit("response.content_part.done", { item_id: item.id, output_index: outputIndex, content_index: 0, part: item.content[0] });
      } else {
        emit("response.function_call_arguments.done", { item_id: item.id, output_index: outputIndex, name: item.name, arguments: item.arguments });
      }
      emit("response.output_item.done", { output_index: outputIndex, item });
    });
    emit(final.status === "incomplete" ? "response.incomplete" : "response.completed", { response: final });
    onFinished(final);
  };

  let failed = false;
  const fail = (why: string) => {
    failed = true;
    emit("response.failed", { response: { ...started, status: "failed", error: { code: "server_error", message: why }, output: [] } });
  };

  /** One SSE event of the chat stream; false once the stream said it is over. */
  const event = (text: string): boolean => {
    for (const line of text.split("\n")) {
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") return false;
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(data);
      } catch {
        continue;
      }
      if (chunk.error) {
        fail(chunk.error.message ?? "The runtime broke off its answer.");
        return false;
      }
      read(chunk);
    }
    return true;
  };

  return new ReadableStream<Uint8Array>({
    start() {
      emit("response.created", { response: started });
      emit("response.in_progress", { response: started });
    },
    async pull(controller) {
      while (out.length === 0 && !ended) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch {
          if (!finished) fail("The runtime broke off its answer.");
          finished = ended = true;
          break;
        }
        if (next.done) {
          if (!finished && pending.trim()) event(pending);
          if (!finished && !failed) finish();
          finished = ended = true;
          break;
        }
        if (finished) continue;
        pending += decoder.decode(next.value, { stream: true });
        let cut: number;
        while (!finished && (cut = pending.indexOf("\n\n")) >= 0) {
          const text = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          if (!event(text)) {
            // [DONE] finishes the response; an error event has failed it already.
            if (!failed) finish();
            finished = true;
          }
        }
      }
      for (const bytes of out.splice(0)) controller.enqueue(bytes);
      if (ended) controller.close();
    },
    cancel(reason) {
      ended = true;
      return reader.cancel(reason);
    },
  });
}
