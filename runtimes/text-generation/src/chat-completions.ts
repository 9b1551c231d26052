import { Elysia } from "elysia";
import type { RequestEnds } from "@svc/runtime-common";
import { planAnswer, type AnswerEvent, type ChatAnswer } from "./chat-answer";
import { chatHistory } from "./chat-history";
import { answeredModel, samplingOptions, type GenerationDeps } from "./generation";
import { fieldsOf, refuseUnsupported } from "./request-options";
import { refuseNonTextParts } from "./text-parts";
import { completionId, streamUsageField, unixSeconds, usageOf } from "./response-ids";
import { ChatCompletionRequest, integerStringsToNumbers } from "./schemas";
import { jsonWithText, TEXT, sseResponse } from "./sse";
import { completionBudget, type TokenLimits } from "./token-limits";

export interface RouteDeps extends GenerationDeps {
  /** Where a stream the gateway named records its end (REQUEST_ENDS_PATH). */
  requestEnds: RequestEnds;
  /** The model snapshot path, reported as `model`. */
  modelName: string;
  limits: () => TokenLimits;
}

const CHAT_FIELDS = fieldsOf(ChatCompletionRequest);

/** A tool call's id, as OpenAI writes them: `call_` and 24 letters and digits. */
const callId = () => `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;

/** The answer's message: text, or one tool call with null content. */
function message(answer: ChatAnswer, id: string) {
  const tool_calls = answer.call ? [{ id, type: "function", function: answer.call }] : [];
  return { role: "assistant", reasoning_content: null, content: answer.text, refusal: null, tool_calls };
}

/** `POST /v1/chat/completions`, in the response shape of spec §4.2 and OpenAI's `CreateChatCompletionResponse`. */
export function chatCompletionsRoute(deps: RouteDeps) {
  return new Elysia().post("/v1/chat/completions", answerChat(deps), { body: ChatCompletionRequest, transform: integerStringsToNumbers });
}

/** Answers a chat request that passed the route's schema: a JSON answer, or a stream of chunks. */
export function answerChat(deps: RouteDeps) {
  return async ({ body, request }: { body: ChatCompletionRequest; request: Request }) => {
      refuseUnsupported(body, CHAT_FIELDS, "/v1/chat/completions");
      refuseNonTextParts(body.messages);
      const plan = await planAnswer(deps, chatHistory(body.messages), body);
      const requested = body.max_completion_tokens ?? body.max_tokens ?? undefined;
      const maxTokensParam = body.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens";
      const maxTokens = completionBudget(plan.prompt.length + plan.reserve, requested, deps.limits(), { prompt: "messages", maxTokens: maxTokensParam });
      const id = completionId("chatcmpl");
      const toolCallId = callId();
      const created = unixSeconds();
      const model = answeredModel(deps, body.model);
      const usage = (answer: ChatAnswer) => usageOf(plan.prompt.length, answer.completionTokens, answer.cachedTokens);

      if (body.stream) {
        const chunk = (delta: object, finishReason: string | null = null, stopReason: string | null = null) => ({
          id,
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason, stop_reason: stopReason }],
          ...streamUsageField(body.stream_options?.include_usage),
        });
        return sseResponse(async (send, abort) => {
          const signal = AbortSignal.any([abort, request.signal]);
          // With tools the first chunk waits for the model's choice: text, or a call (content null).
          let started = false;
          const start = (delta: object) => {
            if (!started) send(chunk({ role: "assistant", ...delta }));
            started = true;
          };
          if (!body.tools?.length) start({ content: "" });
          const content = jsonWithText(chunk({ content: TEXT }));
          let args: ((text: string) => string) | undefined;
          const onEvent = (event: AnswerEvent) => {
            if (event.kind === "call") start({ content: null, tool_calls: [{ index: 0, id: toolCallId, type: "function", function: { name: event.name, arguments: "" } }] });
            else if (event.kind === "arguments") send.piece((args ??= jsonWithText(chunk({ tool_calls: [{ index: 0, function: { arguments: TEXT } }] })))(event.piece));
            else {
              start({ content: "" });
              send.piece(content(event.piece));
            }
          };
          const answer = await plan.run(samplingOptions(body, maxTokens, signal), onEvent);
          start({ content: "" });
          send(chunk({}, answer.finishReason, answer.stopReason));
          if (body.stream_options?.include_usage) {
            send({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usage(answer) });
          }
          return { promptTokens: plan.prompt.length, completionTokens: answer.completionTokens };
        }, deps.requestEnds.reporter(request));
      }

      const answer = await plan.run(samplingOptions(body, maxTokens, request.signal), () => {});
      return {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message: message(answer, toolCallId), logprobs: null, finish_reason: answer.finishReason, stop_reason: answer.stopReason }],
        usage: usage(answer),
        prompt_logprobs: null,
      };
  };
}
