import { randomBytes } from "node:crypto";

export const completionId = (prefix: "chatcmpl" | "cmpl") => `${prefix}-${randomBytes(12).toString("hex")}`;
export const unixSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The OpenAI `usage` object for a prompt of `promptTokens`, of which `cachedTokens` were not
 * evaluated again (the start an earlier request left in the engine's cache), and an answer of
 * `completionTokens`.
 */
export const usageOf = (promptTokens: number, completionTokens: number, cachedTokens: number) => ({
  prompt_tokens: promptTokens,
  total_tokens: promptTokens + completionTokens,
  completion_tokens: completionTokens,
  prompt_tokens_details: { cached_tokens: Math.min(cachedTokens, promptTokens) },
});

/** With `stream_options.include_usage`, every chunk but the last carries `usage: null` (OpenAI's stream). */
export const streamUsageField = (includeUsage: boolean | null | undefined) => (includeUsage ? { usage: null } : {});
