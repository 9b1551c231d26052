import { Type } from "@sinclair/typebox";
import { inDocument } from "./check";
import { CompletionUsage, nullable } from "./common";

const FinishReason = Type.Union([Type.Literal("stop"), Type.Literal("length"), Type.Literal("content_filter")]);

const Logprobs = nullable(
  Type.Object({
    text_offset: Type.Optional(Type.Array(Type.Integer())),
    token_logprobs: Type.Optional(Type.Array(Type.Number())),
    tokens: Type.Optional(Type.Array(Type.String())),
    top_logprobs: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Number()))),
  }),
);

const completionObject = (streamed: boolean) =>
  Type.Object({
    id: Type.String(),
    object: Type.Literal("text_completion"),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(Type.Object({ index: Type.Integer(), text: Type.String(), logprobs: Logprobs, finish_reason: streamed ? nullable(FinishReason) : FinishReason })),
    usage: Type.Optional(streamed ? nullable(CompletionUsage) : CompletionUsage),
    system_fingerprint: Type.Optional(Type.String()),
  });

/** `CreateCompletionResponse` (`POST /v1/completions`, not streamed). */
export const TextCompletion = inDocument("CreateCompletionResponse", completionObject(false));

/**
 * One `data:` event of a streamed `/v1/completions`. OpenAI's document names no separate stream
 * shape for it: each event is a `CreateCompletionResponse`, except that `finish_reason` is null
 * until the last choice and, with `stream_options.include_usage`, `usage` is null until the last
 * chunk (as `ChatCompletionStreamOptions` describes for both endpoints).
 */
export const TextCompletionChunk = inDocument("CreateCompletionResponse", completionObject(true), [
  { path: /\/choices\/\d+\/finish_reason/, why: "null until a choice's last chunk, as in a chat stream (the document has no stream shape for completions)" },
  { path: /\/usage/, why: "null until the last chunk with stream_options.include_usage (ChatCompletionStreamOptions)" },
]);
