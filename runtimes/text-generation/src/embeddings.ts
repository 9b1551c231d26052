import { Elysia } from "elysia";
import type { Token } from "node-llama-cpp";
import { invalidRequest } from "@svc/runtime-common";
import type { RouteDeps } from "./chat-completions";
import type { Embedding, EmbeddingEngine } from "./embedding-engine";
import { EmbeddingRequest } from "./schemas";

/** The base64 of the little-endian float32 values: what OpenAI sends for `encoding_format: base64`. */
function base64Floats(vector: number[]): string {
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  vector.forEach((value, i) => view.setFloat32(i * 4, value, true));
  return Buffer.from(view.buffer).toString("base64");
}

type Input = string | Token[];

/** The inputs as a list, each checked against what the model can take; refusals are 400s naming the input. */
function inputsOf(body: EmbeddingRequest, embedder: EmbeddingEngine, maxInputLength: number | undefined): Input[] {
  const raw = body.input;
  // A string or one token array is one input; an array of those is several.
  const several = Array.isArray(raw) && typeof raw[0] !== "number";
  const inputs: Input[] = several ? (raw as Input[]) : [raw as Input];
  const vocabulary = embedder.vocabularySize;
  const limit = Math.min(maxInputLength ?? Infinity, embedder.contextSize - 1);
  inputs.forEach((input, i) => {
    const param = several ? `input.${i}` : "input";
    if (input === "") throw invalidRequest(`${param} is empty: send text to embed.`, param);
    if (typeof input !== "string") {
      const bad = input.find((id) => (id as number) >= vocabulary);
      if (bad !== undefined) throw invalidRequest(`${param}: token id ${bad} is not in the model's vocabulary of ${vocabulary} tokens.`, param);
    }
    const length = embedder.inputLength(input);
    if (length > limit) {
      const why = maxInputLength !== undefined && maxInputLength < embedder.contextSize ? "--max-input-length" : "the context size";
      throw invalidRequest(`${param} has ${length} tokens, more than the ${limit} this service embeds at once (${why}).`, param, "context_length_exceeded");
    }
  });
  return inputs;
}

/** `POST /v1/embeddings`: one vector per input, from the same GGUF as the chat. */
export function embeddingsRoute(deps: RouteDeps & { maxInputLength?: number }) {
  return new Elysia().post(
    "/v1/embeddings",
    async ({ body }) => {
      const embedder = await deps.engine().embedder();
      if (body.dimensions !== undefined && body.dimensions !== embedder.dimensions) {
        throw invalidRequest(`dimensions: this model's embeddings have ${embedder.dimensions} dimensions and cannot be shortened; send no dimensions (or ${embedder.dimensions}).`, "dimensions");
      }
      const inputs = inputsOf(body, embedder, deps.maxInputLength);
      const embeddings: Embedding[] = [];
      await deps.queue.run(async () => {
        for (const input of inputs) embeddings.push(await embedder.embed(input));
      });
      const promptTokens = embeddings.reduce((sum, embedding) => sum + embedding.tokens, 0);
      deps.metrics.promptTokens.inc({}, promptTokens);
      const encode = body.encoding_format === "base64" ? base64Floats : (vector: number[]) => vector;
      return {
        object: "list",
        model: deps.modelName,
        data: embeddings.map((embedding, index) => ({ object: "embedding", index, embedding: encode(embedding.vector) })),
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      };
    },
    { body: EmbeddingRequest },
  );
}
