/**
 * OpenAI's Responses API at the gateway's /v1 with the official `openai` client: a real app on
 * Docker with debug off, keys from `svc key create`, the tiny llama on svc's CPU runtime (which
 * the gateway translates for). Every answer and stream event is checked against OpenAI's shapes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateObject } from "ai";
import OpenAI from "openai";
import { z } from "zod";
import { assertShape, OpenAiErrorResponse, ResponseObject, ResponseStreamEvent } from "@svc/contracts/openai";
import { runSvc, startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const TOKEN = "v1-responses-test-token-0123456789";
let tiny: TinyApp;
let alice: OpenAI;
let bob: OpenAI;

async function createKey(name: string): Promise<string> {
  const created = await runSvc(["key", "create", "--name", name], tiny.env);
  expect(created.code).toBe(0);
  return created.stdout.split("\n")[0].trim();
}

const client = (apiKey: string) => new OpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey, maxRetries: 0 });
/** The response as the API sent it: the client adds `output_text` itself (and, in responses.stream, `output_parsed` and each part's `parsed`). */
const raw = (response: object): Record<string, unknown> => {
  const { output_text: _text, output_parsed: _parsed, ...sent } = response as Record<string, any>;
  return { ...sent, output: sent.output.map((item: any) => (item.content ? { ...item, content: item.content.map(({ parsed: _part, ...part }: any) => part) } : item)) };
};
/** The error a request failed with (the client's promises are not plain ones, which expect().rejects reads as resolved). */
const failure = (request: PromiseLike<unknown>) => Promise.resolve(request).then(() => undefined, (error: unknown) => error);

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  await tiny.serving(["text-generation", TEXT_MODEL, "--name", "llama-responses"]);
  alice = client(await createKey("alice"));
  bob = client(await createKey("bob"));
}, 600_000);

afterAll(async () => {
  await tiny?.cleanup();
});

// generateObject is deprecated in AI SDK 7 (for generateText with an output), and still what many clients call.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

describe("responses with the openai client", () => {
  let first: OpenAI.Responses.Response;

  test("responses.create: a Response in OpenAI's shape, with text and usage", async () => {
    first = await alice.responses.create({ model: TEXT_MODEL, input: "Hello", instructions: "Answer briefly.", max_output_tokens: 8, temperature: 0 });
    assertShape(ResponseObject, raw(first), "responses.create");
    expect(first.id).toMatch(/^resp_/);
    expect(first.object).toBe("response");
    expect(["completed", "incomplete"]).toContain(first.status!);
    expect(first.output_text.length).toBeGreaterThan(0);
    expect(first.output[0]).toMatchObject({ type: "message", role: "assistant" });
    expect(first.usage!.input_tokens).toBeGreaterThan(0);
    expect(first.usage!.output_tokens).toBeGreaterThan(0);
    expect(first.usage!.output_tokens).toBeLessThanOrEqual(8);
    expect(first.usage!.total_tokens).toBe(first.usage!.input_tokens + first.usage!.output_tokens);
  });

  test("previous_response_id: the second request's prompt holds the first turn", async () => {
    const alone = await alice.responses.create({ model: TEXT_MODEL, input: "And then?", max_output_tokens: 4, temperature: 0 });
    const second = await alice.responses.create({ model: TEXT_MODEL, input: "And then?", previous_response_id: first.id, max_output_tokens: 4, temperature: 0 });
    assertShape(ResponseObject, raw(second), "a second turn");
    expect(second.previous_response_id).toBe(first.id);
    // The first turn's input and output come before the new input (its instructions do not).
    expect(second.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens + first.usage!.output_tokens);
  });

  test("streamed: OpenAI's typed events in order, numbered; the final response is the one GET answers", async () => {
    const stream = await alice.responses.create({ model: TEXT_MODEL, input: "Hello", max_output_tokens: 6, temperature: 0, stream: true });
    const events: Array<Record<string, any>> = [];
    for await (const event of stream) events.push(event as unknown as Record<string, any>);
    events.forEach((event, i) => assertShape(ResponseStreamEvent, event, `stream event ${i} (${event.type})`));
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"]);
    expect(types.slice(-4)).toEqual(["response.output_text.done", "response.content_part.done", "response.output_item.done", types.at(-1)]);
    expect(["response.completed", "response.incomplete"]).toContain(types.at(-1)!);
    const deltas = events.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta).join("");
    const final = events.at(-1)!.response;
    expect(final.output[0].content[0].text).toBe(deltas);
    expect(raw(await alice.responses.retrieve(final.id))).toEqual(final);
  });

  test("responses.stream gives the same response as its final one", async () => {
    const stream = alice.responses.stream({ model: TEXT_MODEL, input: "Hi", max_output_tokens: 4, temperature: 0 });
    let deltas = "";
    stream.on("response.output_text.delta", (event) => (deltas += event.delta));
    const final = await stream.finalResponse();
    assertShape(ResponseObject, raw(final), "responses.stream's final response");
    expect(final.output_text).toBe(deltas);
    expect(raw(await alice.responses.retrieve(final.id))).toEqual(raw(final));
  });

  test("another key gets 404 for it, and cannot chain on it; DELETE removes it", async () => {
    expect(await failure(bob.responses.retrieve(first.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(bob.responses.create({ model: TEXT_MODEL, input: "x", previous_response_id: first.id }))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(bob.responses.delete(first.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await alice.responses.retrieve(first.id)).id).toBe(first.id);
    await alice.responses.delete(first.id);
    expect(await failure(alice.responses.retrieve(first.id))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("store: false keeps nothing", async () => {
    const unkept = await alice.responses.create({ model: TEXT_MODEL, input: "Hi", max_output_tokens: 2, store: false });
    expect(unkept.output_text.length).toBeGreaterThan(0);
    expect(await failure(alice.responses.retrieve(unkept.id))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("function tools and text.format json_schema: a function_call whose arguments parse, JSON text that validates", async () => {
    const weather = { type: "object", properties: { city: { type: "string", maxLength: 12 } }, required: ["city"], additionalProperties: false };
    const called = await alice.responses.create({
      model: TEXT_MODEL,
      input: "What is the weather in Paris?",
      tools: [{ type: "function", name: "get_weather", description: "The weather in a city.", parameters: weather, strict: true }],
      tool_choice: "required",
      max_output_tokens: 48,
    });
    assertShape(ResponseObject, raw(called), "a function call");
    const call = called.output.find((item) => item.type === "function_call") as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ type: "function_call", name: "get_weather" });
    expect(typeof JSON.parse(call.arguments).city).toBe("string");
    // The tool's result goes back as an item; the next answer is text.
    const answered = await alice.responses.create({ model: TEXT_MODEL, previous_response_id: called.id, input: [{ type: "function_call_output", call_id: call.call_id, output: "sunny" }], max_output_tokens: 8 });
    expect(answered.output_text.length).toBeGreaterThan(0);
    const structured = await alice.responses.create({
      model: TEXT_MODEL,
      input: "Give me a city.",
      text: { format: { type: "json_schema", name: "city", schema: weather, strict: true } },
      max_output_tokens: 48,
    });
    assertShape(ResponseObject, raw(structured), "structured output");
    expect(Object.keys(JSON.parse(structured.output_text))).toEqual(["city"]);
  });

  test("the Vercel AI SDK's generateObject over the Responses API (text.format) with zod bounds: an object that satisfies them", async () => {
    const provider = createOpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey: TOKEN });
    const schema = z.object({ age: z.number().int().min(1).max(120), count: z.number().int(), name: z.string().min(2).max(10), tags: z.array(z.string().max(6)).min(1).max(2) });
    const { object, response } = await generateObject({ model: provider.responses(TEXT_MODEL), schema, prompt: "Describe someone.", temperature: 1, maxOutputTokens: 200, maxRetries: 0 });
    expect(schema.safeParse(object).success).toBe(true);
    assertShape(ResponseObject, response.body, "generateObject's response");
  });

  test("a schema keyword the grammar cannot enforce is named in text.format, the field the client sent", async () => {
    const format = { type: "json_schema" as const, name: "word", schema: { type: "object", properties: { word: { type: "string", pattern: "^(?!no)\\w+$" } }, required: ["word"], additionalProperties: false } };
    const error = (await failure(alice.responses.create({ model: TEXT_MODEL, input: "A word.", text: { format } }))) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe("text.format.schema.properties.word.pattern");
    expect(error.message).toContain("text.format.schema.properties.word.pattern: lookarounds");
  });

  test("an option the CPU runtime cannot honour is a 400 in OpenAI's shape naming it", async () => {
    const response = await fetch(`${tiny.app.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, input: "Hi", tools: [{ type: "web_search" }] }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    assertShape(OpenAiErrorResponse, body, "a refused option");
    expect(body.error.param).toBe("tools[0].type");
    expect(body.error.message).toContain("web_search");
    const error = (await failure(alice.responses.create({ model: TEXT_MODEL, input: "Hi", reasoning: { effort: "high" } }))) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe("reasoning");
  });

  test("usage is recorded per key, under /v1/responses", async () => {
    const result = await runSvc(["usage", "--json", "--by", "key"], tiny.env);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { groups: Array<{ group: string; requests: number; promptTokens: number }> };
    const ofAlice = report.groups.find((group) => group.group === "alice")!;
    expect(ofAlice.requests).toBeGreaterThanOrEqual(8);
    expect(ofAlice.promptTokens).toBeGreaterThan(0);
  });
});
