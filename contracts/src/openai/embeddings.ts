import { Type } from "@sinclair/typebox";
import { inDocument } from "./check";

/**
 * `CreateEmbeddingResponse` (`POST /v1/embeddings`). The document types `embedding` as an array of
 * floats; with `encoding_format: "base64"` (what the `openai` clients ask for by default) it is the
 * base64 of the little-endian float32 values.
 */
export const EmbeddingList = inDocument("CreateEmbeddingResponse", Type.Object({
  object: Type.Literal("list"),
  model: Type.String(),
  data: Type.Array(
    Type.Object({
      object: Type.Literal("embedding"),
      index: Type.Integer(),
      embedding: Type.Union([Type.Array(Type.Number()), Type.String({ pattern: "^[A-Za-z0-9+/]*={0,2}$" })]),
    }),
  ),
  usage: Type.Object({ prompt_tokens: Type.Integer(), total_tokens: Type.Integer() }),
}), [
  { path: /\/data\/\d+\/embedding/, why: "with encoding_format base64 (the openai clients' default) a string, which the document does not type" },
]);
