import { Type, type TSchema } from "@sinclair/typebox";
import { inDocument } from "./check";
import { streamEventSchema } from "./document/answers";
import { nullable } from "./common";

/**
 * The Responses API (`POST/GET/DELETE /v1/responses`), written from the required fields and types
 * of OpenAI's published OpenAPI document (github.com/openai/openai-openapi: `Response`,
 * `OutputItem`, `ResponseStreamEvent`), as far as svc answers them: message and function-call
 * output items, text and function-call streaming events. Objects allow fields not named here.
 */

/** `OutputTextContent`: `annotations` is required (svc's is always empty). */
export const ResponseOutputText = Type.Object({
  type: Type.Literal("output_text"),
  text: Type.String(),
  annotations: Type.Array(Type.Unknown()),
  logprobs: Type.Optional(Type.Array(Type.Unknown())),
});

const ItemStatus = Type.Union([Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("incomplete")]);

/** `OutputMessage`. */
export const ResponseOutputMessage = inDocument("OutputMessage", Type.Object({
  id: Type.String(),
  type: Type.Literal("message"),
  role: Type.Literal("assistant"),
  status: ItemStatus,
  content: Type.Array(Type.Union([ResponseOutputText, Type.Object({ type: Type.Literal("refusal"), refusal: Type.String() })])),
}));

/** `FunctionToolCall`: `arguments` is the JSON text of the call's arguments. */
export const ResponseFunctionToolCall = inDocument("FunctionToolCall", Type.Object({
  type: Type.Literal("function_call"),
  id: Type.Optional(Type.String()),
  call_id: Type.String(),
  name: Type.String(),
  arguments: Type.String(),
  status: Type.Optional(ItemStatus),
}));

export const ResponseOutputItem = Type.Union([ResponseOutputMessage, ResponseFunctionToolCall]);

/** `ResponseUsage`: both details objects are required, `cache_write_tokens` too. */
export const ResponseUsage = inDocument("ResponseUsage", Type.Object({
  input_tokens: Type.Integer(),
  input_tokens_details: Type.Object({ cached_tokens: Type.Integer(), cache_write_tokens: Type.Integer() }),
  output_tokens: Type.Integer(),
  output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer() }),
  total_tokens: Type.Integer(),
}));

const FunctionTool = Type.Object({
  type: Type.Literal("function"),
  name: Type.String(),
  parameters: nullable(Type.Record(Type.String(), Type.Unknown())),
  strict: nullable(Type.Boolean()),
  description: Type.Optional(nullable(Type.String())),
});

const ToolChoice = Type.Union([
  Type.Literal("none"),
  Type.Literal("auto"),
  Type.Literal("required"),
  Type.Object({ type: Type.Literal("function"), name: Type.String() }),
  // A native engine's other tool choices pass through.
  Type.Object({ type: Type.String() }),
]);

/** `Response`: the required fields of `ResponseProperties` and `Response` (status and usage are optional there; svc always sends them). */
export const ResponseObject = inDocument("Response", Type.Object({
  id: Type.String(),
  object: Type.Literal("response"),
  created_at: Type.Number(),
  status: Type.Optional(Type.Union(["completed", "failed", "in_progress", "cancelled", "queued", "incomplete"].map((status) => Type.Literal(status)))),
  error: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  incomplete_details: nullable(Type.Object({ reason: Type.Optional(Type.Union([Type.Literal("max_output_tokens"), Type.Literal("content_filter")])) })),
  instructions: nullable(Type.Union([Type.String(), Type.Array(Type.Unknown())])),
  max_output_tokens: Type.Optional(nullable(Type.Integer())),
  model: Type.String(),
  output: Type.Array(ResponseOutputItem),
  parallel_tool_calls: Type.Boolean(),
  previous_response_id: Type.Optional(nullable(Type.String())),
  temperature: nullable(Type.Number()),
  top_p: nullable(Type.Number()),
  tool_choice: ToolChoice,
  tools: Type.Array(Type.Union([FunctionTool, Type.Object({ type: Type.String() })])),
  text: Type.Optional(Type.Object({ format: Type.Optional(Type.Object({ type: Type.Union([Type.Literal("text"), Type.Literal("json_object"), Type.Literal("json_schema")]) })) })),
  metadata: nullable(Type.Record(Type.String(), Type.String())),
  usage: Type.Optional(ResponseUsage),
  user: Type.Optional(Type.String()),
}));

/** `DELETE /v1/responses/{id}`'s answer. */
export const ResponseDeleted = Type.Object({ id: Type.String(), object: Type.Literal("response.deleted"), deleted: Type.Literal(true) });

const event = <T extends string, P extends Record<string, TSchema>>(type: T, fields: P) =>
  inDocument(streamEventSchema(type), Type.Object({ type: Type.Literal(type), sequence_number: Type.Integer({ minimum: 0 }), ...fields }));

const itemAt = { item_id: Type.String(), output_index: Type.Integer({ minimum: 0 }) };
const partAt = { ...itemAt, content_index: Type.Integer({ minimum: 0 }) };

/** The events of a streamed response that svc sends (`ResponseStreamEvent`), each with its `sequence_number`. */
export const ResponseStreamEvents = {
  created: event("response.created", { response: ResponseObject }),
  inProgress: event("response.in_progress", { response: ResponseObject }),
  completed: event("response.completed", { response: ResponseObject }),
  incomplete: event("response.incomplete", { response: ResponseObject }),
  failed: event("response.failed", { response: ResponseObject }),
  itemAdded: event("response.output_item.added", { output_index: Type.Integer({ minimum: 0 }), item: ResponseOutputItem }),
  itemDone: event("response.output_item.done", { output_index: Type.Integer({ minimum: 0 }), item: ResponseOutputItem }),
  partAdded: event("response.content_part.added", { ...partAt, part: ResponseOutputText }),
  partDone: event("response.content_part.done", { ...partAt, part: ResponseOutputText }),
  textDelta: event("response.output_text.delta", { ...partAt, delta: Type.String(), logprobs: Type.Array(Type.Unknown()) }),
  textDone: event("response.output_text.done", { ...partAt, text: Type.String(), logprobs: Type.Array(Type.Unknown()) }),
  argumentsDelta: event("response.function_call_arguments.delta", { ...itemAt, delta: Type.String() }),
  argumentsDone: event("response.function_call_arguments.done", { ...itemAt, name: Type.String(), arguments: Type.String() }),
  error: event("error", { code: nullable(Type.String()), message: Type.String(), param: nullable(Type.String()) }),
};

/** Any one event of a streamed response. */
export const ResponseStreamEvent = inDocument("ResponseStreamEvent", Type.Union(Object.values(ResponseStreamEvents)));
