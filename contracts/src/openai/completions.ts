import { Type } from "@sinclair/typebox";
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

const completionObject = (finishReason: typeof FinishReason | ReturnType<typeof nullable<typeof FinishReason>>) =>
  Type.Object({
    id: Type.String(),
    object: Type.Literal("text_completion"),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(Type.Object({ index: Type.Integer(), text: Type.String(), logprobs: Logprobs, finish_reason: finishReason })),
    usage: Type.Optional(CompletionUsage),
    system_fingerprint: Type.Optional(Type.String()),
  });

/** `CreateCompletionResponse` (`POST /v1/completions`, not streamed). */
export const TextCompletion = completionObject(FinishReason);

/**
 * One `data:` event of a streamed `/v1/completions`. OpenAI's document names no separate stream
 * shape for it: each event is a `CreateCompletionResponse`, except that `finish_reason` is null
 * until the last choice, as OpenAI's own API sends it.
 */
export const TextCompletionChunk = completionObject(nullable(FinishReason));
