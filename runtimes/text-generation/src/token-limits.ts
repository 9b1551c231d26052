import { invalidRequest } from "@svc/runtime-common";

export interface TokenLimits {
  /** --max-input-length: most prompt tokens a request may have. */
  maxInputLength?: number;
  /** --max-total-tokens: most prompt + generated tokens a request may reach. */
  maxTotalTokens?: number;
  /** What the engine's context holds. */
  contextSize: number;
}

/**
 * How many tokens a request may generate: the requested cap, or all the room left. A request over
 * a limit is refused with a 400, as the OpenAI API does for an over-long context.
 */
export function completionBudget(
  promptTokens: number,
  requested: number | undefined,
  limits: TokenLimits,
  params: { prompt: string; maxTokens: string },
): number {
  if (limits.maxInputLength !== undefined && promptTokens > limits.maxInputLength) {
    throw invalidRequest(
      `The input has ${promptTokens} tokens, more than the ${limits.maxInputLength} this service accepts (--max-input-length).`,
      params.prompt,
      "context_length_exceeded",
    );
  }
  const total = Math.min(limits.maxTotalTokens ?? limits.contextSize, limits.contextSize);
  const totalSource = limits.maxTotalTokens !== undefined && limits.maxTotalTokens <= limits.contextSize ? "--max-total-tokens" : "the model's context";
  if (promptTokens >= total) {
    throw invalidRequest(
      `The input has ${promptTokens} tokens, which leaves no room to generate within ${total} total tokens (${totalSource}).`,
      params.prompt,
      "context_length_exceeded",
    );
  }
  if (requested !== undefined && promptTokens + requested > total) {
    throw invalidRequest(
      `The input (${promptTokens} tokens) plus the ${requested} tokens requested exceed the ${total} total tokens allowed (${totalSource}).`,
      params.maxTokens,
      "context_length_exceeded",
    );
  }
  return requested ?? total - promptTokens;
}
