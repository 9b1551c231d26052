import type { CreateResponseRequest, FunctionCallItem, FunctionCallOutputItem, FunctionTool, InputItem, MessageItem, ResponseBody } from "./model";

type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } };

type ChatMessage =
  | { role: "system" | "user" | "assistant"; content: string | ChatPart[] }
  | { role: "assistant"; content: null; tool_calls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> }
  | { role: "tool"; tool_call_id: string; content: string };

/** A request's `input` as items: a string is one user message. */
export const inputItems = (input: CreateResponseRequest["input"]): InputItem[] => (input === undefined ? [] : typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input);

/**
 * What the model sees of a turn: the earlier turns (the previous response's own history and its
 * output, as OpenAI chains them; not its instructions) and this request's input.
 */
export const turnHistory = (previous: { history: InputItem[]; response: ResponseBody } | undefined, input: CreateResponseRequest["input"]): InputItem[] => [
  ...(previous ? [...previous.history, ...(previous.response.output as InputItem[])] : []),
  ...inputItems(input),
];

const textOf = (content: string | Array<{ text?: string }>) => (typeof content === "string" ? content : content.map((part) => part.text ?? "").join(""));

type InputPart = { type: string; text?: string; image_url?: string; detail?: string };

/** A message's content as chat sends it: its text, or (with an image) its parts one for one, `input_image` as an `image_url` part. */
function chatContent(content: string | InputPart[]): string | ChatPart[] {
  if (typeof content === "string" || !content.some((part) => part.type === "input_image")) return textOf(content);
  return content.map((part): ChatPart =>
    part.type === "input_image" ? { type: "image_url", image_url: { url: part.image_url ?? "", ...(part.detail ? { detail: part.detail } : {}) } } : { type: "text", text: part.text ?? "" },
  );
}

/**
 * The chat messages of a turn, and where each came from: the index of its item in `items` (the
 * first, for an assistant message of several calls), -1 for the instructions' system message.
 */
function chatMessages(instructions: string | null | undefined, items: InputItem[]): { messages: ChatMessage[]; origins: number[] } {
  const messages: ChatMessage[] = instructions ? [{ role: "system", content: instructions }] : [];
  const origins: number[] = instructions ? [-1] : [];
  for (const [index, item] of items.entries()) {
    const before = messages.length;
    if (item.type === "function_call") {
      const call = item as FunctionCallItem;
      const toolCall = { id: call.call_id, type: "function" as const, function: { name: call.name, arguments: call.arguments } };
      const last = messages.at(-1);
      // Calls of one turn are one assistant message.
      if (last && "tool_calls" in last) last.tool_calls.push(toolCall);
      else messages.push({ role: "assistant", content: null, tool_calls: [toolCall] });
    } else if (item.type === "function_call_output") {
      const output = item as FunctionCallOutputItem;
      messages.push({ role: "tool", tool_call_id: output.call_id, content: textOf(output.output) });
    } else {
      const message = item as MessageItem;
      messages.push({ role: message.role === "developer" ? "system" : message.role, content: chatContent(message.content) });
    }
    if (messages.length > before) origins.push(index);
  }
  return { messages, origins };
}

/** For each message of the translated chat, the index of the item of `items` it came from (-1: the instructions), to name a refused message's part as the client sent it. */
export const chatMessageOrigins = (instructions: string | null | undefined, items: InputItem[]) => chatMessages(instructions, items).origins;

const chatTool = (tool: FunctionTool) => ({
  type: "function",
  function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), ...(tool.parameters ? { parameters: tool.parameters } : {}), ...(tool.strict != null ? { strict: tool.strict } : {}) },
});

function responseFormat(format: NonNullable<CreateResponseRequest["text"]>["format"]) {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  const schema = format as { name: string; schema: Record<string, unknown>; description?: string; strict?: boolean | null };
  return { type: "json_schema", json_schema: { name: schema.name, schema: schema.schema, ...(schema.description ? { description: schema.description } : {}), ...(schema.strict != null ? { strict: schema.strict } : {}) } };
}

/**
 * The chat-completions request for svc's CPU runtime that answers a Responses request, the one
 * place the two meet: `instructions` → a system message, the turn's items → messages (`input_image`
 * parts → `image_url` parts, which the CPU runtime refuses naming them; function
 * calls → an assistant's tool_calls, their outputs → tool messages), function tools → chat tools,
 * `text.format` → `response_format`, `max_output_tokens` → `max_completion_tokens`. A stream asks
 * for the final usage chunk, which the translation reads.
 */
export function toChatRequest(request: CreateResponseRequest, items: InputItem[]): Record<string, unknown> {
  const chat: Record<string, unknown> = { model: request.model, messages: chatMessages(request.instructions, items).messages };
  if (request.max_output_tokens != null) chat.max_completion_tokens = request.max_output_tokens;
  if (request.temperature != null) chat.temperature = request.temperature;
  if (request.top_p != null) chat.top_p = request.top_p;
  if (request.tools?.length) chat.tools = (request.tools as FunctionTool[]).map(chatTool);
  const choice = request.tool_choice;
  if (choice !== undefined) chat.tool_choice = typeof choice === "string" ? choice : { type: "function", function: { name: (choice as { name: string }).name } };
  const format = responseFormat(request.text?.format);
  if (format) chat.response_format = format;
  if (request.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}
