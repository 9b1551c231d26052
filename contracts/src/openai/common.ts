import { Type, type TSchema } from "@sinclair/typebox";
import { inDocument } from "./check";

/**
 * Shapes shared by OpenAI's endpoints, written from the required fields and types of OpenAI's
 * published OpenAPI document (github.com/openai/openai-openapi). Like that document, the objects
 * allow fields it does not name (svc adds `stop_reason`, `reasoning_content`, … per spec §4.2).
 */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `CompletionUsage`: the token counts; the two details objects are optional, never null. */
export const CompletionUsage = inDocument("CompletionUsage", Type.Object({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  prompt_tokens_details: Type.Optional(
    Type.Object({
      cached_tokens: Type.Optional(Type.Integer()),
      audio_tokens: Type.Optional(Type.Integer()),
      text_tokens: Type.Optional(Type.Integer()),
      image_tokens: Type.Optional(Type.Integer()),
    }),
  ),
  completion_tokens_details: Type.Optional(
    Type.Object({
      reasoning_tokens: Type.Optional(Type.Integer()),
      audio_tokens: Type.Optional(Type.Integer()),
      accepted_prediction_tokens: Type.Optional(Type.Integer()),
      rejected_prediction_tokens: Type.Optional(Type.Integer()),
      text_tokens: Type.Optional(Type.Integer()),
    }),
  ),
}));

/** `ErrorResponse`: every error answer, `{error: {message, type, param, code}}`, all four present. */
export const OpenAiErrorResponse = inDocument("ErrorResponse", Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.String(),
    param: nullable(Type.String()),
    code: nullable(Type.String()),
  }),
}));
