import { Elysia } from "elysia";
import { invalidRequest } from "@svc/runtime-common";
import { generate, samplingOptions, type GenerationDeps } from "./generation";
import type { ChatTurn } from "./llama-engine";
import { completionId, streamUsageField, unixSeconds, usageOf } from "./response-ids";
import { ChatCompletionRequest, integerStringsToNumbers } from "./schemas";
import { jsonWithText, TEXT, sseResponse } from "./sse";
import { completionBudget, type TokenLimits } from "./token-limits";

export interface RouteDeps extends GenerationDeps {
  /** The model snapshot path, reported as `model`. */
  modelName: string;
  limits: () => TokenLimits;
}

const ROLES: Record<string, ChatTurn["role"]> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
  tool: "user",
};

function toTurns(messages: ChatCompletionRequest["messages"]): ChatTurn[] {
  return messages.map((message, index) => {
    const role = ROLES[message.role];
    if (!role) throw invalidRequest(`messages.${index}.role: "${message.role}" is not one of ${Object.keys(ROLES).join(", ")}`, `messages.${index}.role`);
    const content =
      typeof message.content === "string" ? message.content : (message.content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
    return { role, content };
  });
}

/** `POST /v1/chat/completions`, in the response shape of spec §4.2 and OpenAI's `CreateChatCompletionResponse`. */
export function chatCompletionsRoute(deps: RouteDeps) {
  return new Elysia().post(
    "/v1/chat/completions",
    async ({ body, request }) => {
      const prompt = deps.engine().tokenizeChat(toTurns(body.messages));
      const requested = body.max_completion_tokens ?? body.max_tokens ?? undefined;
      const maxTokensParam = body.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens";
      const maxTokens = completionBudget(prompt.length, requested, deps.limits(), { prompt: "messages", maxTokens: maxTokensParam });
      const id = completionId("chatcmpl");
      const created = unixSeconds();
      const usage = (completionTokens: number) => usageOf(prompt.length, completionTokens);

      if (body.stream) {
        const chunk = (delta: object, finishReason: string | null = null, stopReason: string | null = null) => ({
          id,
          object: "chat.completion.chunk",
          created,
          model: deps.modelName,
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason, stop_reason: stopReason }],
          ...streamUsageField(body.stream_options?.include_usage),
        });
        return sseResponse(async (send, abort) => {
          const signal = AbortSignal.any([abort, request.signal]);
          send(chunk({ role: "assistant", content: "" }));
          const content = jsonWithText(chunk({ content: TEXT }));
          const result = await generate(deps, prompt, samplingOptions(body, maxTokens, signal), (piece) => send.piece(content(piece)));
          send(chunk({}, result.finishReason, result.stopReason));
          if (body.stream_options?.include_usage) {
            send({ id, object: "chat.completion.chunk", created, model: deps.modelName, choices: [], usage: usage(result.completionTokens) });
          }
        });
      }

      const result = await generate(deps, prompt, samplingOptions(body, maxTokens, request.signal));
      return {
        id,
        object: "chat.completion",
        created,
        model: deps.modelName,
        choices: [
          {
            index: 0,
            message: { role: "assistant", reasoning_content: null, content: result.text, refusal: null, tool_calls: [] },
            logprobs: null,
            finish_reason: result.finishReason,
            stop_reason: result.stopReason,
          },
        ],
        usage: usage(result.completionTokens),
        prompt_logprobs: null,
      };
    },
    { body: ChatCompletionRequest, transform: integerStringsToNumbers },
  );
}
