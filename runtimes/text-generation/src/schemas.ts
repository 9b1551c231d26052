import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/**
 * A plain integer. Elysia's t.Integer is a transform (it also takes "12"), and one transform in a
 * schema makes Elysia decode the whole body again, walking it field by field, on every request:
 * ~0.1–0.5 ms before a first token. `integerStringsToNumbers` keeps "12" accepted.
 */
const integer = Type.Integer;

/** The integer fields of the sampling requests. */
const INTEGER_FIELDS = ["max_tokens", "max_completion_tokens", "seed", "n"];

/** Turns the integer fields sent as strings ("12") into numbers, as Elysia's t.Integer did; Elysia's transform hook, before validation. */
export function integerStringsToNumbers({ body }: { body: unknown }): void {
  if (typeof body !== "object" || body === null) return;
  const fields = body as Record<string, unknown>;
  for (const name of INTEGER_FIELDS) {
    const value = fields[name];
    if (typeof value === "string" && value && Number.isInteger(+value)) fields[name] = +value;
  }
}

/** An optional field that may also be null; `error` is what a client is told when it is wrong. */
const nullable = <T extends Parameters<typeof t.Nullable>[0]>(schema: T, error: string) => t.Optional(t.Union([schema, t.Null()], { error }));

/** Sampling fields shared by /v1/chat/completions and /v1/completions. */
const sampling = {
  model: nullable(t.String(), "model: must be a string"),
  max_tokens: nullable(integer({ minimum: 1 }), "max_tokens: must be an integer of at least 1"),
  temperature: nullable(t.Number({ minimum: 0, maximum: 2 }), "temperature: must be a number from 0 to 2"),
  top_p: nullable(t.Number({ exclusiveMinimum: 0, maximum: 1 }), "top_p: must be a number above 0 and at most 1"),
  stop: nullable(t.Union([t.String({ minLength: 1 }), t.Array(t.String({ minLength: 1 }), { maxItems: 4 })]), "stop: must be a string or an array of up to 4 strings"),
  seed: nullable(integer(), "seed: must be an integer"),
  stream: nullable(t.Boolean(), "stream: must be true or false"),
  stream_options: nullable(t.Object({ include_usage: t.Optional(t.Nullable(t.Boolean())) }), "stream_options: must be an object like {include_usage: true}"),
  n: nullable(integer({ minimum: 1, maximum: 1 }), "n: only one choice per request is supported"),
};

/** Other fields reach the route (Elysia would drop them), which refuses those it cannot honour (request-options.ts). */
const KEEP_OTHER_FIELDS = { additionalProperties: true };

const contentPart = t.Object({ type: t.String(), text: t.Optional(t.String()) });

const toolCall = t.Object({
  id: t.String(),
  type: t.Literal("function"),
  function: t.Object({ name: t.String(), arguments: t.String() }),
});

/** A JSON schema, checked against what the grammar can enforce when it is used (json-schema.ts). */
const jsonSchema = t.Record(t.String(), t.Unknown());

const tool = t.Object({
  type: t.Literal("function", { error: 'tools: each tool is {type: "function", function: {name, description?, parameters?}}' }),
  function: t.Object({
    name: t.String({ pattern: "^[a-zA-Z0-9_-]{1,64}$", error: "tools: a function name is 1 to 64 letters, digits, _ or -" }),
    description: t.Optional(t.String()),
    parameters: t.Optional(jsonSchema),
    strict: t.Optional(t.Nullable(t.Boolean())),
  }),
});

const toolChoice = t.Union([t.Literal("none"), t.Literal("auto"), t.Literal("required"), t.Object({ type: t.Literal("function"), function: t.Object({ name: t.String() }) })], {
  error: 'tool_choice: must be "none", "auto", "required" or {type: "function", function: {name}}',
});

const responseFormat = t.Union(
  [
    t.Object({ type: t.Literal("text") }),
    t.Object({ type: t.Literal("json_object") }),
    t.Object({
      type: t.Literal("json_schema"),
      json_schema: t.Object({ name: t.String(), description: t.Optional(t.String()), schema: t.Optional(jsonSchema), strict: t.Optional(t.Nullable(t.Boolean())) }),
    }),
  ],
  { error: 'response_format: must be {type: "text"}, {type: "json_object"} or {type: "json_schema", json_schema: {name, schema, strict?}}' },
);

export const ChatCompletionRequest = t.Object({
  ...sampling,
  messages: t.Array(
    t.Object({
      role: t.String(),
      content: t.Optional(t.Nullable(t.Union([t.String(), t.Array(contentPart)]))),
      name: t.Optional(t.String()),
      tool_calls: t.Optional(t.Nullable(t.Array(toolCall))),
      tool_call_id: t.Optional(t.String()),
      refusal: t.Optional(t.Nullable(t.String())),
    }),
    { minItems: 1 },
  ),
  max_completion_tokens: nullable(integer({ minimum: 1 }), "max_completion_tokens: must be an integer of at least 1"),
  tools: t.Optional(t.Nullable(t.Array(tool))),
  tool_choice: t.Optional(t.Nullable(toolChoice)),
  response_format: t.Optional(t.Nullable(responseFormat)),
}, KEEP_OTHER_FIELDS);
export type ChatCompletionRequest = typeof ChatCompletionRequest.static;

export const CompletionRequest = t.Object({
  ...sampling,
  prompt: t.Union([t.String(), t.Array(t.String(), { minItems: 1, maxItems: 1 })], {
    error: "prompt: must be a string (or an array holding one string)",
  }),
  max_tokens: nullable(integer({ minimum: 1 }), "max_tokens: must be an integer of at least 1"),
}, KEEP_OTHER_FIELDS);
export type CompletionRequest = typeof CompletionRequest.static;

export type SamplingRequest = Pick<ChatCompletionRequest, "temperature" | "top_p" | "stop" | "seed" | "model">;

const tokenIds = t.Array(t.Integer({ minimum: 0 }), { minItems: 1 });

export const EmbeddingRequest = t.Object({
  model: nullable(t.String(), "model: must be a string"),
  input: t.Union([t.String(), t.Array(t.String(), { minItems: 1, maxItems: 2048 }), tokenIds, t.Array(tokenIds, { minItems: 1, maxItems: 2048 })], {
    error: "input: must be a string, an array of up to 2048 strings, an array of token ids, or an array of such arrays",
  }),
  encoding_format: t.Optional(t.Union([t.Literal("float"), t.Literal("base64")], { error: "encoding_format: must be float or base64" })),
  dimensions: t.Optional(t.Integer({ minimum: 1, error: "dimensions: must be an integer of at least 1" })),
  user: t.Optional(t.String()),
});
export type EmbeddingRequest = typeof EmbeddingRequest.static;
