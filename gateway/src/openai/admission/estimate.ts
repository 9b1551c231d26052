import type { V1Body } from "../request-body";

/** What a request may use, estimated before it is sent. */
export interface TokenEstimate {
  prompt: number;
  /** The completion it may ask for: max_completion_tokens, max_tokens or max_output_tokens (× n), 0 when it gives none. */
  completion: number;
  total: number;
}

export const NO_TOKENS: TokenEstimate = Object.freeze({ prompt: 0, completion: 0, total: 0 });

/** About four characters of English text a token, as OpenAI estimates a prompt before it is tokenized. */
const CHARS_PER_TOKEN = 4;
/** The fields of a request that hold its prompt, and of their parts those holding text (images and audio are not counted). */
const PROMPT_FIELDS = ["messages", "prompt", "input", "instructions"];
const TEXT_FIELDS = ["content", "text", "output", "tool_calls", "function", "arguments"];

/** Characters of text in a prompt field, and token ids given as numbers (a completions or embeddings prompt may be token ids). */
function measure(value: unknown, sum: { chars: number; ids: number }): void {
  if (typeof value === "string") sum.chars += value.length;
  else if (typeof value === "number") sum.ids += 1;
  else if (Array.isArray(value)) for (const item of value) measure(item, sum);
  else if (value && typeof value === "object") {
    for (const field of TEXT_FIELDS) measure((value as Record<string, unknown>)[field], sum);
  }
}

const positiveInteger = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined);

/**
 * The tokens a request is held to before it goes out, as OpenAI counts them for its token limits:
 * its prompt at about four characters a token, plus the completion it may ask for. A
 * transcription (a multipart upload) counts by request only: no tokens.
 */
export function estimateTokens(body: V1Body): TokenEstimate {
  const json = body.json;
  if (!json) return NO_TOKENS;
  const sum = { chars: 0, ids: 0 };
  for (const field of PROMPT_FIELDS) measure(json[field], sum);
  const prompt = Math.ceil(sum.chars / CHARS_PER_TOKEN) + sum.ids;
  const most = positiveInteger(json.max_completion_tokens) ?? positiveInteger(json.max_tokens) ?? positiveInteger(json.max_output_tokens) ?? 0;
  const completion = most * (positiveInteger(json.n) ?? 1);
  return { prompt, completion, total: prompt + completion };
}
