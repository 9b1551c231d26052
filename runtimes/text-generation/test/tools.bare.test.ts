/** Tool calls and structured outputs of the bare text-generation runtime on the tiny random model, through the `openai` client: the grammar makes the output valid. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateObject } from "ai";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type OpenAI from "openai";
import { z } from "zod";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { assertShape, ChatCompletion, ChatCompletionChunk, OpenAiErrorResponse } from "@svc/contracts/openai";
import { API_KEY, client } from "./openai-contract";

let cacheDir: string;
let modelPath: string;
let runtime: RuntimeProcess;
let openai: OpenAI;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-tools-"));
  modelPath = makeTinyModels(cacheDir).textGeneration;
  runtime = await startRuntime("text-generation", ["--model", modelPath, "--api-key", API_KEY, "--ctx-size", "2048"]);
  openai = client(runtime.url);
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

// The values are exact decimal multiples; Ajv divides in binary floating point.
const ajv = addFormats(new Ajv2020({ strict: false, multipleOfPrecision: 9 }));
/** Parses `text` as JSON and checks it against `schema` with Ajv; fails naming what is wrong. */
function expectValid(schema: object, text: string | null | undefined): unknown {
  const value = JSON.parse(text ?? "null");
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`${text} does not validate: ${ajv.errorsText(validate.errors)}`);
  return value;
}

const weather = {
  type: "object",
  properties: {
    city: { type: "string", maxLength: 24 },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "integer" },
  },
  required: ["city", "unit", "days"],
  additionalProperties: false,
} as const;
const search = { type: "object", properties: { query: { type: "string", maxLength: 16 }, exact: { type: "boolean" } }, required: ["query", "exact"], additionalProperties: false } as const;
const tools: OpenAI.ChatCompletionTool[] = [
  { type: "function", function: { name: "get_weather", description: "The weather forecast of a city", parameters: weather, strict: true } },
  { type: "function", function: { name: "search_web", description: "Searches the web", parameters: search } },
];
const schemaOf: Record<string, object> = { get_weather: weather, search_web: search };
// generateObject is deprecated in AI SDK 7 (for generateText with an output), and still what many clients call.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const ask = { model: "", messages: [{ role: "user" as const, content: "What is the weather in Paris?" }], max_tokens: 200, temperature: 1, seed: 11 };

function expectToolCall(completion: OpenAI.ChatCompletion, name?: string): OpenAI.ChatCompletionMessageFunctionToolCall {
  assertShape(ChatCompletion, completion, "tool call answer");
  const [choice] = completion.choices;
  expect(choice.finish_reason).toBe("tool_calls");
  expect(choice.message.content).toBeNull();
  expect(choice.message.tool_calls).toHaveLength(1);
  const call = choice.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
  expect(call.id).toMatch(/^call_[a-z0-9]{24}$/);
  expect(call.type).toBe("function");
  if (name) expect(call.function.name).toBe(name);
  expectValid(schemaOf[call.function.name], call.function.arguments);
  return call;
}

describe("structured outputs", () => {
  test("json_schema strict: the content parses and validates against the schema", async () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", maxLength: 20 },
        age: { type: "integer" },
        score: { type: "number" },
        member: { type: "boolean" },
        tags: { type: "array", items: { type: "string", maxLength: 8 }, maxItems: 3 },
        level: { anyOf: [{ type: "string", enum: ["low", "high"] }, { type: "null" }] },
      },
      required: ["name", "age", "score", "member", "tags", "level"],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const completion = await openai.chat.completions.create({ ...ask, model: modelPath, seed, response_format: { type: "json_schema", json_schema: { name: "person", schema, strict: true } } });
      assertShape(ChatCompletion, completion, "json_schema answer");
      expect(completion.choices[0].finish_reason).toBe("stop");
      expectValid(schema, completion.choices[0].message.content);
    }
  });

  test("json_object: the content parses as a JSON object", async () => {
    const completion = await openai.chat.completions.create({ ...ask, model: modelPath, max_tokens: 400, response_format: { type: "json_object" } });
    expect(completion.choices[0].finish_reason).toBe("stop");
    expectValid({ type: "object" }, completion.choices[0].message.content);
  });

  test("bounds, patterns, formats and item counts: the content validates, formats included", async () => {
    const schema = {
      type: "object",
      properties: {
        age: { type: "integer", minimum: 18, maximum: 99 },
        price: { type: "number", exclusiveMinimum: 0, maximum: 100, multipleOf: 0.01 },
        code: { type: "string", pattern: "^[A-Z]{2}-\\d{3}$" },
        day: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string", minLength: 1, maxLength: 6 }, minItems: 1, maxItems: 2 },
      },
      required: ["age", "price", "code", "day", "tags"],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const completion = await openai.chat.completions.create({ ...ask, model: modelPath, seed, response_format: { type: "json_schema", json_schema: { name: "item", schema, strict: true } } });
      expect(completion.choices[0].finish_reason).toBe("stop");
      expectValid(schema, completion.choices[0].message.content);
    }
  });

  test("the Vercel AI SDK's generateObject with a zod schema: bounded integers, a bounded string, a bounded array, an e-mail address", async () => {
    const provider = createOpenAICompatible({ name: "svc", baseURL: `${runtime.url}/v1`, apiKey: API_KEY, supportsStructuredOutputs: true });
    const schema = z.object({
      age: z.number().int().min(18).max(99),
      // zod writes the safe-integer range as the bounds of any int.
      count: z.number().int(),
      name: z.string().min(2).max(12),
      tags: z.array(z.string().max(8)).min(1).max(3),
      // zod writes a format and its own pattern.
      email: z.email(),
    });
    for (const seed of [1, 2]) {
      const { object } = await generateObject({ model: provider(modelPath), schema, prompt: "Describe a person.", seed, temperature: 1, maxOutputTokens: 300, maxRetries: 0 });
      expect(schema.safeParse(object).success).toBe(true);
    }
  });

  test("a schema keyword the grammar cannot enforce gets a 400 naming it", async () => {
    const schema = { type: "object", properties: { word: { type: "string", pattern: "^(?!no)\\w+$" } }, required: ["word"], additionalProperties: false };
    const refused = await openai.chat.completions.create({ ...ask, model: modelPath, response_format: { type: "json_schema", json_schema: { name: "x", schema } } }).catch((caught) => caught);
    expect(refused.status).toBe(400);
    expect(refused.error.param).toBe("response_format.json_schema.schema.properties.word.pattern");
    expect(refused.error.message).toStartWith("response_format.json_schema.schema.properties.word.pattern: lookarounds");
  });
});

describe("tool calls", () => {
  test("tool_choice required: a call of one of the tools whose arguments validate against its parameters", async () => {
    const names = new Set<string>();
    for (const seed of [1, 2, 3, 4]) {
      const call = expectToolCall(await openai.chat.completions.create({ ...ask, model: modelPath, seed, tools, tool_choice: "required" }));
      names.add(call.function.name);
    }
    expect([...names].every((name) => name in schemaOf)).toBe(true);
  });

  test("a named tool_choice: a call of that tool", async () => {
    expectToolCall(await openai.chat.completions.create({ ...ask, model: modelPath, tools, tool_choice: { type: "function", function: { name: "search_web" } } }), "search_web");
  });

  test("tool_choice none: a text answer", async () => {
    const completion = await openai.chat.completions.create({ ...ask, model: modelPath, max_tokens: 8, tools, tool_choice: "none" });
    assertShape(ChatCompletion, completion, "text answer");
    expect(completion.choices[0].message.tool_calls).toEqual([]);
    expect(typeof completion.choices[0].message.content).toBe("string");
    expect(completion.choices[0].finish_reason).toBe("length");
  });

  test("tool_choice auto: the model's choice, the same for the same seeded request, and valid either way", async () => {
    const request = { ...ask, model: modelPath, max_tokens: 40, tools, tool_choice: "auto" as const };
    const [a, b] = [await openai.chat.completions.create(request), await openai.chat.completions.create(request)];
    expect(b.choices[0].message.content).toBe(a.choices[0].message.content);
    expect(b.choices[0].finish_reason).toBe(a.choices[0].finish_reason);
    if (a.choices[0].message.tool_calls?.length) expectToolCall(a);
    else {
      assertShape(ChatCompletion, a, "auto text answer");
      // The random model does not start with the template's "||call:" syntax, so it answers in text.
      expect(a.choices[0].message.content).not.toStartWith("||call:");
    }
  });

  test("a streamed call: the first delta names it, arguments follow in pieces, the client assembles a valid call", async () => {
    const request = { ...ask, model: modelPath, tools, tool_choice: { type: "function" as const, function: { name: "get_weather" } } };
    const whole = expectToolCall(await openai.chat.completions.create(request), "get_weather");
    const stream = await openai.chat.completions.create({ ...request, stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      assertShape(ChatCompletionChunk, chunk, "tool call chunk");
      chunks.push(chunk);
    }
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^call_/), type: "function", function: { name: "get_weather", arguments: "" } });
    expect(chunks[0].choices[0].delta).toMatchObject({ role: "assistant", content: null });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.slice(1).every((delta) => delta.id === undefined && delta.function?.name === undefined)).toBe(true);
    const args = deltas.map((delta) => delta.function?.arguments ?? "").join("");
    expect(args).toBe(whole.function.arguments); // seeded: the same call as the single answer
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("tool_calls");

    // The client's own stream helper assembles the same call.
    const runner = openai.chat.completions.stream(request);
    const final = await runner.finalChatCompletion();
    const assembled = final.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(assembled.function).toMatchObject({ name: "get_weather", arguments: whole.function.arguments });
  });

  test("a second turn with the assistant's tool call and the tool's result in the history is answered", async () => {
    const first = await openai.chat.completions.create({ ...ask, model: modelPath, tools, tool_choice: "required" });
    const call = expectToolCall(first);
    const alone = await openai.chat.completions.create({ ...ask, model: modelPath, max_tokens: 1, tools, tool_choice: "none" });
    const second = await openai.chat.completions.create({
      ...ask,
      model: modelPath,
      max_tokens: 8,
      tools,
      tool_choice: "none",
      messages: [...ask.messages, first.choices[0].message, { role: "tool", tool_call_id: call.id, content: '{"forecast": "sunny", "temperature": 21}' }],
    });
    assertShape(ChatCompletion, second, "second turn");
    expect(second.choices[0].message.content!.length).toBeGreaterThan(0);
    // The call and its result are in the prompt: it is longer than the question alone by more than the result.
    expect(second.usage!.prompt_tokens).toBeGreaterThan(alone.usage!.prompt_tokens + 40);
  });

  test("a tool message answering no call, or a tool_choice naming no tool, gets a 400 naming the field", async () => {
    const orphan = await openai.chat.completions.create({ ...ask, model: modelPath, messages: [...ask.messages, { role: "tool", tool_call_id: "call_x", content: "1" }] }).catch((caught) => caught);
    expect(orphan.status).toBe(400);
    expect(orphan.error.param).toBe("messages.1.tool_call_id");
    const unknown = await openai.chat.completions.create({ ...ask, model: modelPath, tools, tool_choice: { type: "function", function: { name: "nope" } } }).catch((caught) => caught);
    expect(unknown.status).toBe(400);
    expect(unknown.error.message).toContain('"nope" is not one of the tools');
  });
});

describe("options the runtime cannot honour", () => {
  const post = (fields: object) =>
    fetch(`${runtime.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 2, ...fields }),
    });

  test("are refused with a 400 naming them", async () => {
    const cases: Array<[object, string]> = [
      [{ logprobs: true }, "logprobs"],
      [{ top_logprobs: 3 }, "top_logprobs"],
      [{ n: 2 }, "n"],
      [{ frequency_penalty: 0.5 }, "frequency_penalty"],
      [{ logit_bias: { "12": 5 } }, "logit_bias"],
      [{ functions: [{ name: "f" }] }, "functions"],
      [{ audio: { voice: "alloy" } }, "audio"],
      [{ top_k: 5 }, "top_k"],
    ];
    for (const [fields, param] of cases) {
      const response = await post(fields);
      expect(response.status).toBe(400);
      const body = await response.json();
      assertShape(OpenAiErrorResponse, body, `the answer to ${JSON.stringify(fields)}`);
      expect(body.error.param).toBe(param);
      expect(body.error.message).toStartWith(`${param}:`);
    }
  });

  test("harmless fields and do-nothing defaults are taken", async () => {
    const response = await post({ user: "u1", metadata: { a: "b" }, logprobs: false, frequency_penalty: 0, presence_penalty: 0, logit_bias: {}, parallel_tool_calls: false, store: false, n: 1, response_format: { type: "text" } });
    expect(response.status).toBe(200);
  });
});
