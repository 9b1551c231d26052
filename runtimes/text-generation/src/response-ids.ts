import { randomBytes } from "node:crypto";

export const completionId = (prefix: "chatcmpl" | "cmpl") => `${prefix}-${randomBytes(12).toString("hex")}`;
export const unixSeconds = () => Math.floor(Date.now() / 1000);

/** The OpenAI `usage` object for a prompt of `promptTokens` and an answer of `completionTokens`. */
export const usageOf = (promptTokens: number, completionTokens: number) => ({
  prompt_tokens: promptTokens,
  total_tokens: promptTokens + completionTokens,
  completion_tokens: completionTokens,
  prompt_tokens_details: null,
});
