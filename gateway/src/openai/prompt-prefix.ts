/** How much of a prompt prefix routing reads: enough to tell long shared system prompts apart, little to hash. */
export const PREFIX_CHARS = 2048;

/** A message's content as text: a string as it is, a list of parts by their text (others as JSON). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : JSON.stringify(part))).join("");
  return content === undefined ? "" : JSON.stringify(content);
}

/** One message (a chat message, a Responses `input` item) as "role: text". */
function messageText(item: unknown): string {
  if (!item || typeof item !== "object") return contentText(item);
  const { role, content } = item as { role?: unknown; content?: unknown };
  return content === undefined ? JSON.stringify(item) : `${typeof role === "string" ? role : ""}: ${contentText(content)}`;
}

/** Messages in order, one per line, up to `chars` characters: a long conversation is not serialized whole. */
function messagesText(items: unknown[], chars: number): string {
  let text = "";
  for (const [index, item] of items.entries()) {
    if (text.length >= chars) break;
    text += (index === 0 ? "" : "\n") + messageText(item);
  }
  return text;
}

/**
 * The first `chars` characters of a request's prompt, the same way for every endpoint: chat
 * `messages` serialized in order, Responses `instructions` then `input`, completions `prompt`.
 * Undefined when the body has none of them (embeddings, audio): such a request is routed least-busy.
 */
export function promptPrefix(json: Record<string, unknown> | undefined, chars = PREFIX_CHARS): string | undefined {
  if (!json) return undefined;
  let text: string | undefined;
  if (Array.isArray(json.messages)) text = messagesText(json.messages, chars);
  else if (json.input !== undefined && (typeof json.input === "string" || Array.isArray(json.input))) {
    const instructions = typeof json.instructions === "string" ? `system: ${json.instructions}\n` : "";
    text = instructions + (typeof json.input === "string" ? `user: ${json.input}` : messagesText(json.input, chars));
  } else if (typeof json.prompt === "string") text = json.prompt;
  else if (Array.isArray(json.prompt)) text = json.prompt.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join("\n");
  return text === undefined ? undefined : text.slice(0, chars);
}
