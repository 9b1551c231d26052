import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { ResponseObject } from "@svc/contracts/openai";

/** A Response object as svc answers and stores it (`ResponseObject` of @svc/contracts/openai). */
export type ResponseBody = Static<typeof ResponseObject>;
export type OutputItem = ResponseBody["output"][number];

const Text = Type.String();
/** A content part: text, or an `input_image` (by `image_url`, a data: or http(s) URL; see image-parts.ts), or another type the translation refuses. */
const ContentPart = Type.Object({
  type: Type.String(),
  text: Type.Optional(Text),
  image_url: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
  file_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** One item of `input`: a message (text or content parts), or a function call and its output. */
const MessageItem = Type.Object({
  type: Type.Optional(Type.Literal("message")),
  role: Type.Union([Type.Literal("user"), Type.Literal("system"), Type.Literal("developer"), Type.Literal("assistant")]),
  content: Type.Union([Text, Type.Array(ContentPart)]),
});
const FunctionCallItem = Type.Object({ type: Type.Literal("function_call"), call_id: Type.String(), name: Type.String(), arguments: Type.String() });
const FunctionCallOutputItem = Type.Object({ type: Type.Literal("function_call_output"), call_id: Type.String(), output: Type.Union([Text, Type.Array(ContentPart)]) });
/** Any other item type: refused by the translation, passed on to an engine that serves /v1/responses itself. */
const OtherItem = Type.Object({ type: Type.String() });

export type MessageItem = Static<typeof MessageItem>;
export type FunctionCallItem = Static<typeof FunctionCallItem>;
export type FunctionCallOutputItem = Static<typeof FunctionCallOutputItem>;
export type InputItem = MessageItem | FunctionCallItem | FunctionCallOutputItem | Static<typeof OtherItem>;

const FunctionTool = Type.Object({
  type: Type.Literal("function"),
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  parameters: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
export type FunctionTool = Static<typeof FunctionTool>;

const TextFormat = Type.Union([
  Type.Object({ type: Type.Literal("text") }),
  Type.Object({ type: Type.Literal("json_object") }),
  Type.Object({
    type: Type.Literal("json_schema"),
    name: Type.String({ minLength: 1 }),
    schema: Type.Record(Type.String(), Type.Unknown()),
    description: Type.Optional(Type.String()),
    strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  }),
]);
export type TextFormat = Static<typeof TextFormat>;

const optionalNullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** Body of `POST /v1/responses`: OpenAI's `CreateResponse`, every field svc reads typed. */
export const CreateResponseRequest = Type.Object({
  model: Type.String({ minLength: 1 }),
  input: Type.Optional(Type.Union([Text, Type.Array(Type.Union([FunctionCallItem, FunctionCallOutputItem, MessageItem, OtherItem]))])),
  instructions: optionalNullable(Text),
  max_output_tokens: optionalNullable(Type.Integer({ minimum: 1 })),
  temperature: optionalNullable(Type.Number({ minimum: 0, maximum: 2 })),
  top_p: optionalNullable(Type.Number({ minimum: 0, maximum: 1 })),
  tools: Type.Optional(Type.Array(Type.Union([FunctionTool, OtherItem]))),
  tool_choice: Type.Optional(
    Type.Union([Type.Literal("none"), Type.Literal("auto"), Type.Literal("required"), Type.Object({ type: Type.Literal("function"), name: Type.String() }), OtherItem]),
  ),
  text: Type.Optional(Type.Object({ format: Type.Optional(Type.Union([TextFormat, OtherItem])), verbosity: optionalNullable(Type.String()) })),
  stream: optionalNullable(Type.Boolean()),
  store: optionalNullable(Type.Boolean()),
  previous_response_id: optionalNullable(Type.String({ minLength: 1 })),
  metadata: optionalNullable(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 })),
  parallel_tool_calls: optionalNullable(Type.Boolean()),
  user: Type.Optional(Type.String()),
  safety_identifier: Type.Optional(Type.String()),
  prompt_cache_key: Type.Optional(Type.String()),
  stream_options: optionalNullable(Type.Object({ include_obfuscation: Type.Optional(Type.Boolean()) })),
  // Read only to refuse what svc cannot honour (see refusals.ts).
  background: optionalNullable(Type.Boolean()),
  include: optionalNullable(Type.Array(Type.String())),
  reasoning: Type.Optional(Type.Unknown()),
  truncation: optionalNullable(Type.String()),
  top_logprobs: optionalNullable(Type.Integer({ minimum: 0 })),
  service_tier: optionalNullable(Type.String()),
  max_tool_calls: optionalNullable(Type.Integer()),
  conversation: Type.Optional(Type.Unknown()),
  prompt: Type.Optional(Type.Unknown()),
});
export type CreateResponseRequest = Static<typeof CreateResponseRequest>;

export const KNOWN_FIELDS = new Set(Object.keys(CreateResponseRequest.properties));

export const checkCreateRequest = TypeCompiler.Compile(CreateResponseRequest);
