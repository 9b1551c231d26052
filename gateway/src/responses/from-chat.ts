import { randomBytes } from "node:crypto";
import type { CreateResponseRequest, OutputItem, ResponseBody } from "./model";

/** An id in OpenAI's style: `resp_…`, `msg_…`, `fc_…`. */
export const newId = (prefix: "resp" | "msg" | "fc") => `${prefix}_${randomBytes(24).toString("hex")}`;

interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

/** A chat answer's message, read from a whole answer or put together from a stream's deltas. */
export interface ChatTurn {
  content: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: ChatUsage | null;
}

/** The response as it starts (`in_progress`, no output yet): every field echoes the request, as OpenAI's does. */
export function startedResponse(request: CreateResponseRequest, model: string, id = newId("resp")): ResponseBody {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "in_progress",
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    temperature: request.temperature ?? null,
    top_p: request.top_p ?? null,
    tool_choice: request.tool_choice ?? "auto",
    tools: (request.tools ?? []).map((tool) => ({ description: null, parameters: null, strict: null, ...tool })) as ResponseBody["tools"],
    text: { format: request.text?.format ?? { type: "text" } } as ResponseBody["text"],
    metadata: request.metadata ?? {},
    // OpenAI's document allows `user` only as a string or absent.
    ...({ store: request.store !== false, truncation: "disabled", ...(typeof request.user === "string" ? { user: request.user } : {}) } as object),
  };
}

export const messageItem = (id: string, text: string, status: "in_progress" | "completed" | "incomplete"): OutputItem => ({
  id,
  type: "message",
  role: "assistant",
  status,
  content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [], logprobs: [] }],
});

export const callItem = (id: string, call: ChatTurn["toolCalls"][number], status: "in_progress" | "completed"): OutputItem => ({
  id,
  type: "function_call",
  call_id: call.id,
  name: call.name,
  arguments: status === "in_progress" ? "" : call.arguments,
  status,
});

/** Chat's token counts in the Responses API's names. */
export const responseUsage = (usage: ChatUsage | null): ResponseBody["usage"] => {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    input_tokens: input,
    // Nothing is written to a cache the way OpenAI bills: cache_write_tokens is 0 (the document requires it).
    input_tokens_details: { cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
};

/**
 * The finished response: its output items (the message, then the function calls, each with the id
 * given: a stream's events named them already), `incomplete` with its reason when the answer was
 * cut at `max_output_tokens`, and the usage.
 */
export function finishedResponse(started: ResponseBody, turn: ChatTurn, ids: { message: string; calls: string[] }): ResponseBody {
  const cut = turn.finishReason === "length";
  const output: OutputItem[] = [];
  if (turn.content !== null || turn.toolCalls.length === 0) output.push(messageItem(ids.message, turn.content ?? "", cut ? "incomplete" : "completed"));
  turn.toolCalls.forEach((call, i) => output.push(callItem(ids.calls[i], call, "completed")));
  return {
    ...started,
    status: cut ? "incomplete" : "completed",
    incomplete_details: cut ? { reason: "max_output_tokens" } : null,
    output,
    usage: responseUsage(turn.usage),
  };
}

/** A whole chat completion as a chat turn. */
export function turnOf(chat: unknown): ChatTurn {
  const answer = chat as { choices?: Array<{ message?: { content?: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason?: string | null }>; usage?: ChatUsage };
  const choice = answer.choices?.[0];
  return {
    content: choice?.message?.content ?? null,
    toolCalls: (choice?.message?.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
    finishReason: choice?.finish_reason ?? null,
    usage: answer.usage ?? null,
  };
}

/** The response that answers a whole (not streamed) chat completion. */
export function responseOfChat(started: ResponseBody, chat: unknown): ResponseBody {
  const turn = turnOf(chat);
  return finishedResponse(started, turn, { message: newId("msg"), calls: turn.toolCalls.map(() => newId("fc")) });
}
