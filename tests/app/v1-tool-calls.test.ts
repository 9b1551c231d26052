/**
 * Tool calls and structured outputs through the gateway's /v1 with the official `openai` client
 * (issue 30): a tiny random model on Docker answers a chat with `tools` with a tool call whose
 * arguments validate against the function's parameters, and `response_format` json_schema with
 * content that validates against the schema; the grammar of the CPU runtime makes it so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import OpenAI from "openai";
import { assertShape, ChatCompletion, ChatCompletionChunk, OpenAiErrorResponse } from "@svc/contracts/openai";
import { startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const TOKEN = "v1-tools-test-token-0123456789";
let tiny: TinyApp;
let openai: OpenAI;

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  await tiny.serving(["text-generation", TEXT_MODEL, "--name", "tools"]);
  openai = new OpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
}, 900_000);

afterAll(async () => {
  await tiny?.cleanup();
});

const ajv = new Ajv2020({ strict: false });
function expectValid(schema: object, text: string | null | undefined): void {
  const validate = ajv.compile(schema);
  const value = JSON.parse(text ?? "null");
  if (!validate(value)) throw new Error(`${text} does not validate: ${ajv.errorsText(validate.errors)}`);
}

const parameters = {
  type: "object",
  properties: { city: { type: "string", maxLength: 24 }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city", "unit"],
  additionalProperties: false,
};
const tools: OpenAI.ChatCompletionTool[] = [{ type: "function", function: { name: "get_weather", description: "The weather of a city", parameters, strict: true } }];
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What is the weather in Paris?" }];

test("a chat with tools returns a tool_calls turn whose arguments validate against the function's parameters, plain and streamed", async () => {
  const completion = await openai.chat.completions.create({ model: TEXT_MODEL, messages, tools, tool_choice: "required", max_tokens: 200, seed: 5 });
  assertShape(ChatCompletion, completion, "tool call through /v1");
  const [choice] = completion.choices;
  expect(choice.finish_reason).toBe("tool_calls");
  expect(choice.message.content).toBeNull();
  const call = choice.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  // (Bun's toMatchObject with expect.stringMatching replaces the field it matches: the id is checked on its own.)
  expect(call.id).toMatch(/^call_[a-z0-9]{24}$/);
  expect(call).toMatchObject({ type: "function", function: { name: "get_weather" } });
  expectValid(parameters, call.function.arguments);

  const stream = openai.chat.completions.stream({ model: TEXT_MODEL, messages, tools, tool_choice: "required", max_tokens: 200, seed: 5 });
  stream.on("chunk", (chunk) => assertShape(ChatCompletionChunk, chunk, "tool call chunk through /v1"));
  const streamed = (await stream.finalChatCompletion()).choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  expect(streamed.function).toMatchObject({ name: "get_weather", arguments: call.function.arguments });

  // The second turn, with the call and its result in the history.
  const second = await openai.chat.completions.create({
    model: TEXT_MODEL,
    messages: [...messages, choice.message, { role: "tool", tool_call_id: call.id, content: "sunny, 21 degrees" }],
    tools,
    max_tokens: 8,
    tool_choice: "none",
  });
  assertShape(ChatCompletion, second, "second turn through /v1");
  expect(second.choices[0].message.content!.length).toBeGreaterThan(0);
});

test("response_format json_schema: the content validates against the schema", async () => {
  const schema = {
    type: "object",
    properties: { answer: { type: "string", maxLength: 30 }, confident: { type: "boolean" }, score: { type: "integer" } },
    required: ["answer", "confident", "score"],
    additionalProperties: false,
  };
  const completion = await openai.chat.completions.create({
    model: TEXT_MODEL,
    messages,
    max_tokens: 200,
    seed: 5,
    response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: true } },
  });
  assertShape(ChatCompletion, completion, "json_schema answer through /v1");
  expect(completion.choices[0].finish_reason).toBe("stop");
  expectValid(schema, completion.choices[0].message.content);
});

test("an option the runtime cannot honour comes back through /v1 as a 400 naming it", async () => {
  const refused = await openai.chat.completions.create({ model: TEXT_MODEL, messages, logprobs: true, top_logprobs: 2 }).catch((caught) => caught);
  expect(refused.status).toBe(400);
  assertShape(OpenAiErrorResponse, { error: refused.error }, "refusal through /v1");
  expect(refused.error.param).toBe("logprobs");
});
