import { Type } from "@sinclair/typebox";
import { inDocument } from "./check";
import { CompletionUsage, nullable } from "./common";

const FinishReason = Type.Union(["stop", "length", "tool_calls", "content_filter", "function_call"].map((reason) => Type.Literal(reason)));

/** `ChatCompletionTokenLogprob`, as far as svc would ever fill it. */
const TokenLogprob = Type.Object({
  token: Type.String(),
  logprob: Type.Number(),
  bytes: nullable(Type.Array(Type.Integer())),
  top_logprobs: Type.Array(Type.Object({ token: Type.String(), logprob: Type.Number(), bytes: nullable(Type.Array(Type.Integer())) })),
});
const ChoiceLogprobs = nullable(Type.Object({ content: nullable(Type.Array(TokenLogprob)), refusal: nullable(Type.Array(TokenLogprob)) }));

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal("function"),
  function: Type.Object({ name: Type.String(), arguments: Type.String() }),
});

/** `ChatCompletionMessageToolCallChunk`: the first chunk of a call names it (id, type, function.name), later ones add `function.arguments` pieces. */
const ToolCallDelta = Type.Object({
  index: Type.Integer(),
  id: Type.Optional(Type.String()),
  type: Type.Optional(Type.Literal("function")),
  function: Type.Optional(Type.Object({ name: Type.Optional(Type.String()), arguments: Type.Optional(Type.String()) })),
});

/** `ChatCompletionResponseMessage`: role, content and refusal are required (the last two nullable). */
export const ChatCompletionMessage = inDocument("ChatCompletionResponseMessage", Type.Object({
  role: Type.Literal("assistant"),
  content: nullable(Type.String()),
  refusal: nullable(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall)),
}));

/** `CreateChatCompletionResponse` (`POST /v1/chat/completions`, not streamed). */
export const ChatCompletion = inDocument("CreateChatCompletionResponse", Type.Object({
  id: Type.String(),
  object: Type.Literal("chat.completion"),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer(),
      message: ChatCompletionMessage,
      logprobs: ChoiceLogprobs,
      finish_reason: FinishReason,
    }),
  ),
  usage: Type.Optional(CompletionUsage),
  system_fingerprint: Type.Optional(Type.String()),
}));

/** `ChatCompletionStreamResponseDelta`: every field optional. */
const ChatCompletionDelta = Type.Object({
  role: Type.Optional(Type.Union(["developer", "system", "user", "assistant", "tool"].map((role) => Type.Literal(role)))),
  content: Type.Optional(nullable(Type.String())),
  refusal: Type.Optional(nullable(Type.String())),
  tool_calls: Type.Optional(Type.Array(ToolCallDelta)),
});

/**
 * `CreateChatCompletionStreamResponse`: one `data:` event of a stream. With
 * `stream_options.include_usage`, every chunk carries `usage` (null but in the last one, whose
 * `choices` is empty).
 */
export const ChatCompletionChunk = inDocument("CreateChatCompletionStreamResponse", Type.Object({
  id: Type.String(),
  object: Type.Literal("chat.completion.chunk"),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer(),
      delta: ChatCompletionDelta,
      logprobs: Type.Optional(ChoiceLogprobs),
      finish_reason: nullable(FinishReason),
    }),
  ),
  usage: Type.Optional(nullable(CompletionUsage)),
  system_fingerprint: Type.Optional(Type.String()),
}));
