import { Elysia } from "elysia";
import type { RouteDeps } from "./chat-completions";
import { answeredModel, generate, samplingOptions } from "./generation";
import type { GenerationResult } from "./llama-engine";
import { completionId, streamUsageField, unixSeconds, usageOf } from "./response-ids";
import { fieldsOf, refuseUnsupported } from "./request-options";
import { CompletionRequest, integerStringsToNumbers } from "./schemas";
import { jsonWithText, TEXT, sseResponse } from "./sse";
import { completionBudget } from "./token-limits";

const COMPLETION_FIELDS = fieldsOf(CompletionRequest);

/** OpenAI's default when a completion request names no max_tokens. */
const DEFAULT_MAX_TOKENS = 16;

/** `POST /v1/completions`: plain text continuation of `prompt`. */
export function completionsRoute(deps: RouteDeps) {
  return new Elysia().post(
    "/v1/completions",
    async ({ body, request }) => {
      refuseUnsupported(body, COMPLETION_FIELDS, "/v1/completions");
      const text = typeof body.prompt === "string" ? body.prompt : body.prompt[0];
      const prompt = deps.engine().tokenizePrompt(text);
      const limits = deps.limits();
      const requested = body.max_tokens ?? undefined;
      const params = { prompt: "prompt", maxTokens: "max_tokens" };
      const room = completionBudget(prompt.length, requested, limits, params);
      const maxTokens = requested ?? Math.min(DEFAULT_MAX_TOKENS, room);
      const id = completionId("cmpl");
      const created = unixSeconds();
      const usage = (result: GenerationResult) => usageOf(prompt.length, result.completionTokens, result.cachedTokens);
      const choice = (text: string, finishReason: string | null, stopReason: string | null) => ({
        index: 0,
        text,
        logprobs: null,
        finish_reason: finishReason,
        stop_reason: stopReason,
      });

      if (body.stream) {
        return sseResponse(async (send, abort) => {
          const signal = AbortSignal.any([abort, request.signal]);
          const chunk = (choices: object[], extra: object = streamUsageField(body.stream_options?.include_usage)) => ({ id, object: "text_completion", created, model: answeredModel(deps, body.model), choices, ...extra });
          const text = jsonWithText(chunk([choice(TEXT, null, null)]));
          const result = await generate(deps, prompt, samplingOptions(body, maxTokens, signal), (piece) => send.piece(text(piece)));
          send(chunk([choice("", result.finishReason, result.stopReason)]));
          if (body.stream_options?.include_usage) send(chunk([], { usage: usage(result) }));
          return { promptTokens: prompt.length, completionTokens: result.completionTokens };
        }, deps.requestEnds.reporter(request));
      }

      const result = await generate(deps, prompt, samplingOptions(body, maxTokens, request.signal));
      return {
        id,
        object: "text_completion",
        created,
        model: answeredModel(deps, body.model),
        choices: [choice(result.text, result.finishReason, result.stopReason)],
        usage: usage(result),
      };
    },
    { body: CompletionRequest, transform: integerStringsToNumbers },
  );
}
