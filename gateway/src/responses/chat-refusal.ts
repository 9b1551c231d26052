/**
 * A refusal of the chat-completions request a Responses request was translated to, naming the
 * fields the client sent: `response_format.json_schema.schema.properties.age.pattern` is
 * `text.format.schema.properties.age.pattern` there, `tools.0.function.parameters` is
 * `tools[0].parameters`, and a message's part `messages.1.content.1` is the input item's part it was
 * translated from, `input[0].content[1]`.
 */

const CHAT_TO_RESPONSES: Array<[RegExp, string]> = [
  [/\bresponse_format\.json_schema\.schema\b/g, "text.format.schema"],
  [/\bresponse_format(\.json_schema)?\b/g, "text.format"],
  [/\btools\.(\d+)\.function\.(\w+)\b/g, "tools[$1].$2"],
  [/\btools\.(\d+)\b/g, "tools[$1]"],
  [/\btool_choice\.function\.name\b/g, "tool_choice.name"],
  [/\bmax_completion_tokens\b/g, "max_output_tokens"],
];

/** Where the chat message of an index came from in the Responses request: `input[0]`, `instructions`… */
export type MessageOrigin = (index: number) => string;

/** `text` with every chat field it names written as the Responses request's field (messages by `origin`, where given). */
export function inResponsesTerms(text: string, origin?: MessageOrigin): string {
  const renamed = CHAT_TO_RESPONSES.reduce((renamed, [chat, responses]) => renamed.replace(chat, responses), text);
  if (!origin) return renamed;
  return renamed.replace(/\bmessages\.(\d+)(?:\.content\.(\d+))?\b/g, (_all, index: string, part?: string) => `${origin(Number(index))}${part !== undefined ? `.content[${part}]` : ""}`);
}

/** The upstream's 400 with its message and param in the Responses request's terms; any other answer as it came. */
export async function responsesRefusal(upstream: Response, origin?: MessageOrigin): Promise<Response> {
  if (upstream.status !== 400 || !(upstream.headers.get("content-type") ?? "").includes("json")) return upstream;
  const text = await upstream.text();
  const headers = new Headers(upstream.headers);
  headers.delete("content-length");
  let body: { error?: { message?: unknown; param?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: upstream.status, headers });
  }
  const error = body?.error;
  if (error && typeof error.message === "string") error.message = inResponsesTerms(error.message, origin);
  if (error && typeof error.param === "string") error.param = inResponsesTerms(error.param, origin);
  return new Response(JSON.stringify(body), { status: upstream.status, headers });
}
