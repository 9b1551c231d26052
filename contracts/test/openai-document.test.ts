/**
 * The answer shapes as OpenAI's document publishes them now (openai-answers.json): where it came
 * from, the generator that extracts it, and the check that names every field where an answer
 * differs from it.
 */
import { expect, test } from "bun:test";
import { ChatCompletion, ChatCompletionChunk, ResponseObject, ResponseStreamEvents, shapeMismatches, TextCompletionChunk } from "../src/openai";
import { OPENAI_ANSWERS } from "../src/openai/document/answers";
import { openAiAnswers } from "../src/openai/document/generate";
import { documentMismatches } from "../src/openai/document/mismatches";

const response = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  status: "completed",
  error: null,
  incomplete_details: null,
  instructions: null,
  model: "m",
  output: [{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "hi", annotations: [], logprobs: [] }] }],
  parallel_tool_calls: true,
  temperature: null,
  top_p: null,
  tool_choice: "auto",
  tools: [],
  text: { format: { type: "text" } },
  metadata: {},
  truncation: "disabled",
  usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 },
};

test("the extract says which document it came from, and holds every endpoint svc answers", () => {
  expect(OPENAI_ANSWERS.source).toMatch(/^openai\/openai-openapi: openapi\.yaml at commit [0-9a-f]{40} \(\d{4}-\d{2}-\d{2}/);
  expect(Object.keys(OPENAI_ANSWERS.answers)).toContain("POST /responses");
  expect(OPENAI_ANSWERS.answers["POST /chat/completions"]).toEqual({
    "application/json": { $ref: "#/components/schemas/CreateChatCompletionResponse" },
    "text/event-stream": { $ref: "#/components/schemas/CreateChatCompletionStreamResponse" },
  });
});

test("a Response as svc answers it matches the document; each field that differs is named, unions by the item's type", () => {
  expect(documentMismatches("Response", response)).toEqual([]);
  const drifted = {
    ...response,
    user: null,
    truncation: "sometimes",
    usage: { ...response.usage, input_tokens_details: { cached_tokens: 0 } },
    output: [{ ...response.output[0], content: [{ type: "output_text", text: 5 }] }, { type: "function_call", call_id: "c", name: "f" }],
  };
  expect(documentMismatches("Response", drifted).sort()).toEqual([
    "/output/0/content/0/annotations: the document requires it (got absent)",
    "/output/0/content/0/logprobs: the document requires it (got absent)",
    "/output/0/content/0/text: the document says string (got 5)",
    "/output/1/arguments: the document requires it (got absent)",
    '/truncation: the document allows "auto" | "disabled" | null (got "sometimes")',
    "/usage/input_tokens_details/cache_write_tokens: the document requires it (got absent)",
    "/user: the document says string (got null)",
  ]);
});

test("the answer checks include the document: a field only it requires is named with the schema", () => {
  expect(shapeMismatches(ResponseObject, response)).toEqual([]);
  expect(shapeMismatches(ResponseObject, { ...response, truncation: "sometimes" })).toEqual([`/truncation: the document allows "auto" | "disabled" | null (got "sometimes") [OpenAI's Response]`]);
  const delta = { type: "response.output_text.delta", sequence_number: 3, item_id: "msg_1", output_index: 0, content_index: 0, delta: "h", logprobs: [] };
  expect(shapeMismatches(ResponseStreamEvents.textDelta, delta)).toEqual([]);
  expect(shapeMismatches(ResponseStreamEvents.textDelta, { ...delta, logprobs: [{ token: "h" }] })).toEqual([
    "/logprobs/0/logprob: the document requires it (got absent) [OpenAI's ResponseTextDeltaEvent]",
  ]);
});

test("differences a shape declares are not named; others still are", () => {
  const chunk = { id: "cmpl-1", object: "text_completion", created: 1, model: "m", choices: [{ index: 0, text: "x", logprobs: null, finish_reason: null }], usage: null };
  expect(shapeMismatches(TextCompletionChunk, chunk)).toEqual([]);
  expect(shapeMismatches(TextCompletionChunk, { ...chunk, system_fingerprint: 5 })[0]).toStartWith("/system_fingerprint: ");
  const chat = { id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, logprobs: null, finish_reason: "stop" }] };
  expect(shapeMismatches(ChatCompletion, chat)).toEqual([]);
  expect(shapeMismatches(ChatCompletionChunk, { ...chat, object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }], service_tier: "nope" })[0]).toStartWith("/service_tier: the document allows");
});

test("the generator takes each served endpoint's answer and every schema it refers to, without what only documents them", () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const ok = (schema: object) => ({ responses: { "200": { content: { "application/json": { schema } } } } });
  const served = ["POST /chat/completions", "POST /completions", "POST /embeddings", "POST /audio/transcriptions", "GET /models", "GET /models/{model}", "POST /responses", "GET /responses/{response_id}"];
  served.push("POST /files", "GET /files", "GET /files/{file_id}", "DELETE /files/{file_id}", "POST /batches", "GET /batches", "GET /batches/{batch_id}", "POST /batches/{batch_id}/cancel");
  const paths: Record<string, Record<string, object>> = {};
  for (const [method, path] of served.map((endpoint) => endpoint.split(" "))) paths[path] = { ...paths[path], [method.toLowerCase()]: ok(ref("Thing")) };
  const document = {
    paths,
    components: {
      schemas: {
        Thing: { type: "object", description: "a thing", "x-oaiMeta": {}, properties: { description: { type: "string", example: "x" }, part: ref("Part") }, required: ["part"] },
        Part: { type: "string", title: "Part" },
        ErrorResponse: { type: "object" },
        Unused: { type: "string" },
      },
    },
  };
  const extract = openAiAnswers(document, "a test document");
  expect(extract.schemas).toEqual({ ErrorResponse: { type: "object" }, Part: { type: "string" }, Thing: { type: "object", properties: { description: { type: "string" }, part: ref("Part") }, required: ["part"] } });
  expect(extract.answers["GET /models"]).toEqual({ "application/json": ref("Thing") });
  const { "/models": _, ...withoutModels } = paths;
  expect(() => openAiAnswers({ ...document, paths: withoutModels }, "x")).toThrow("GET /models: the document has no 200 answer for it");
});
