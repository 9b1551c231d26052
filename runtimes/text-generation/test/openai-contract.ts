/**
 * Checks shared by the bare and the container tests: the text-generation runtime as the official
 * `openai` client sees it.
 */
import { expect } from "bun:test";
import OpenAI from "openai";
import { REQUEST_ENDS_PATH, REQUEST_ID_HEADER, type RequestEndsPage } from "@svc/contracts/request-ends";
import { assertShape, ChatCompletion, ChatCompletionChunk, EmbeddingList, ModelList, OpenAiErrorResponse, TextCompletion, TextCompletionChunk } from "@svc/contracts/openai";

export const API_KEY = "test-key-0123456789";

export function client(baseURL: string, apiKey = API_KEY): OpenAI {
  return new OpenAI({ baseURL: `${baseURL}/v1`, apiKey, maxRetries: 0, timeout: 50_000 });
}

export async function expectChatCompletion(openai: OpenAI, modelPath: string): Promise<void> {
  const completion = await openai.chat.completions.create({
    model: modelPath,
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Say hello to the tiny model." },
    ],
    max_completion_tokens: 8,
    temperature: 0,
  });
  assertShape(ChatCompletion, completion, "chat completion");
  expect(Object.keys(completion).sort()).toEqual(["choices", "created", "id", "model", "object", "prompt_logprobs", "usage"]);
  expect(completion.id).toMatch(/^chatcmpl-\w+$/);
  expect(completion.object).toBe("chat.completion");
  expect(completion.model).toBe(modelPath);
  expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(120);
  const [choice] = completion.choices;
  expect(Object.keys(choice).sort()).toEqual(["finish_reason", "index", "logprobs", "message", "stop_reason"]);
  expect(choice.index).toBe(0);
  expect(choice.message).toEqual({ role: "assistant", reasoning_content: null, content: expect.any(String), refusal: null, tool_calls: [] } as never);
  expect(choice.message.content!.length).toBeGreaterThan(0);
  expect(choice.finish_reason).toBe("length");
  expect(choice.logprobs).toBeNull();
  expect(completion.usage).toEqual({ prompt_tokens: expect.any(Number), completion_tokens: 8, total_tokens: expect.any(Number), prompt_tokens_details: { cached_tokens: expect.any(Number) } });
  expect(completion.usage!.prompt_tokens_details!.cached_tokens).toBeLessThan(completion.usage!.prompt_tokens);
  expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + 8);
  expect(completion.usage!.prompt_tokens).toBeGreaterThan(10); // the ChatML template wraps both messages
}

export async function expectStreamedChat(openai: OpenAI, modelPath: string): Promise<void> {
  const request = { model: modelPath, messages: [{ role: "user" as const, content: "Count to three." }], max_tokens: 6, temperature: 0 };
  const whole = await openai.chat.completions.create(request);
  const stream = await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
  let text = "";
  const finishReasons: string[] = [];
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    expect(chunk.object).toBe("chat.completion.chunk");
    expect(chunk.id).toMatch(/^chatcmpl-/);
    for (const choice of chunk.choices) {
      text += choice.delta.content ?? "";
      if (choice.finish_reason) finishReasons.push(choice.finish_reason);
    }
    usage = chunk.usage ?? usage;
  }
  // Greedy decoding is deterministic: the stream carries the same text as the single response.
  expect(text).toBe(whole.choices[0].message.content!);
  expect(finishReasons).toEqual(["length"]);
  expect(usage?.completion_tokens).toBe(6);
}

export const post = (baseURL: string, path: string, body: unknown) =>
  fetch(`${baseURL}${path}`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body: JSON.stringify(body) });

/** The JSON events of an SSE answer, after checking its framing: `data:` events ending with `data: [DONE]`. */
export async function sseEvents(response: Response): Promise<Array<Record<string, any>>> {
  expect(response.headers.get("content-type")).toStartWith("text/event-stream");
  const events = (await response.text()).split("\n\n").filter(Boolean);
  expect(events.every((event) => event.startsWith("data: "))).toBe(true);
  expect(events.at(-1)).toBe("data: [DONE]");
  return events.slice(0, -1).map((event) => JSON.parse(event.slice(6)));
}

/** The raw streams of both endpoints, with and without usage: every chunk has OpenAI's chunk shape. */
export async function expectSseFraming(baseURL: string): Promise<void> {
  // Greedy decoding, so the tiny model cannot end the answer early by sampling its end token.
  const request = { max_tokens: 3, temperature: 0, stream: true };
  const plain = await sseEvents(await post(baseURL, "/v1/chat/completions", { ...request, messages: [{ role: "user", content: "hi" }] }));
  plain.forEach((chunk, i) => assertShape(ChatCompletionChunk, chunk, `chat chunk ${i}`));
  expect(plain.every((chunk) => !("usage" in chunk))).toBe(true);
  expect(plain.at(-1)!.choices[0]).toMatchObject({ finish_reason: "length", delta: {} });

  const counted = await sseEvents(await post(baseURL, "/v1/chat/completions", { ...request, messages: [{ role: "user", content: "hi" }], stream_options: { include_usage: true } }));
  counted.forEach((chunk, i) => assertShape(ChatCompletionChunk, chunk, `chat chunk ${i} with include_usage`));
  expect(counted.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  // The same prompt as the request before: all of it but its last token was still in the engine's cache.
  const usage = counted.at(-1)!.usage;
  expect(counted.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 3 } });
  expect(usage.prompt_tokens_details).toEqual({ cached_tokens: usage.prompt_tokens - 1 });

  const text = await sseEvents(await post(baseURL, "/v1/completions", { ...request, prompt: "hello", stream_options: { include_usage: true } }));
  text.forEach((chunk, i) => assertShape(TextCompletionChunk, chunk, `completion chunk ${i}`));
  expect(text.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 3, prompt_tokens_details: { cached_tokens: expect.any(Number) } } });
}

export async function expectCompletion(openai: OpenAI, modelPath: string): Promise<void> {
  const completion = await openai.completions.create({ model: modelPath, prompt: "hello world", max_tokens: 5, temperature: 0 });
  assertShape(TextCompletion, completion, "text completion");
  expect(completion.object).toBe("text_completion");
  expect(completion.choices[0].text.length).toBeGreaterThan(0);
  expect(completion.choices[0].finish_reason).toBe("length");
  expect(completion.usage?.completion_tokens).toBe(5);

  const stream = await openai.completions.create({ model: modelPath, prompt: "hello world", max_tokens: 5, temperature: 0, stream: true });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
  expect(text).toBe(completion.choices[0].text);
}

export async function expectModels(openai: OpenAI, modelPath: string): Promise<void> {
  const models = await openai.models.list();
  const raw = await (await fetch(`${openai.baseURL}/models`, { headers: { authorization: `Bearer ${openai.apiKey}` } })).json();
  assertShape(ModelList, raw, "model list");
  expect(models.data.map((model) => model.id)).toEqual([modelPath]);
  expect(models.data[0].object).toBe("model");
}

export async function expectAuthErrors(baseURL: string, modelPath: string): Promise<void> {
  for (const apiKey of ["wrong-key", ""]) {
    const error = await client(baseURL, apiKey || "x")
      .chat.completions.create({ model: modelPath, messages: [{ role: "user", content: "hi" }], max_tokens: 2 }, apiKey ? {} : { headers: { Authorization: null } })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
  }
  const bare = await fetch(`${baseURL}/v1/models`);
  expect(bare.status).toBe(401);
  const body = await bare.json();
  assertShape(OpenAiErrorResponse, body, "401 answer");
  expect(body.error.message).toContain("Authorization: Bearer");
}

/** The runtime must have been started with --max-input-length 64 --max-total-tokens 128. */
export async function expectLimitErrors(openai: OpenAI, modelPath: string): Promise<void> {
  const longInput = await openai.chat.completions
    .create({ model: modelPath, messages: [{ role: "user", content: "hello world ".repeat(60) }], max_tokens: 2 })
    .catch((caught) => caught);
  expect(longInput).toBeInstanceOf(OpenAI.BadRequestError);
  assertShape(OpenAiErrorResponse, { error: longInput.error }, "400 answer");
  expect(longInput.error).toMatchObject({ type: "invalid_request_error", code: "context_length_exceeded", param: "messages" });
  expect(longInput.error.message).toContain("--max-input-length");

  const overTotal = await openai.chat.completions
    .create({ model: modelPath, messages: [{ role: "user", content: "hi" }], max_completion_tokens: 120 })
    .catch((caught) => caught);
  expect(overTotal).toBeInstanceOf(OpenAI.BadRequestError);
  expect(overTotal.error).toMatchObject({ code: "context_length_exceeded", param: "max_completion_tokens" });
  expect(overTotal.error.message).toContain("--max-total-tokens");

  const longPrompt = await openai.completions.create({ model: modelPath, prompt: "hello ".repeat(100), max_tokens: 2 }).catch((caught) => caught);
  expect(longPrompt).toBeInstanceOf(OpenAI.BadRequestError);
}

/** Five callers at once: every one is answered, in full. */
export async function expectConcurrentRequests(openai: OpenAI, modelPath: string): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      openai.chat.completions.create({ model: modelPath, messages: [{ role: "user", content: `Request number ${i}` }], max_tokens: 12, temperature: 0.8, seed: i }),
    ),
  );
  for (const answer of answers) {
    expect(answer.choices[0].finish_reason).toBe("length");
    expect(answer.usage?.completion_tokens).toBe(12);
  }
  expect(new Set(answers.map((answer) => answer.id)).size).toBe(5);
}

const decodeBase64Floats = (text: string) => [...new Float32Array(Buffer.from(text, "base64").buffer.slice(0))];
const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

/** `/v1/embeddings`: the client's default (base64), floats, batches, token ids, and clear refusals. */
export async function expectEmbeddings(openai: OpenAI, baseURL: string, modelPath: string): Promise<void> {
  const one = await openai.embeddings.create({ model: modelPath, input: "hello world" });
  expect(one.model).toBe(modelPath);
  const [vector] = one.data.map((entry) => entry.embedding);
  expect(vector.length).toBeGreaterThan(0);
  expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
  expect(one.usage.prompt_tokens).toBeGreaterThan(0);
  expect(one.usage.total_tokens).toBe(one.usage.prompt_tokens);

  const floats = await (await post(baseURL, "/v1/embeddings", { model: modelPath, input: ["hello world", "something else entirely"], encoding_format: "float" })).json();
  assertShape(EmbeddingList, floats, "float embeddings");
  expect(floats.data.map((entry: { index: number }) => entry.index)).toEqual([0, 1]);
  const [first, second] = floats.data.map((entry) => entry.embedding as number[]);
  first.forEach((value, i) => expect(value).toBeCloseTo(vector[i], 5));
  expect(cosine(first, second)).toBeLessThan(0.99);

  const base64 = await (await post(baseURL, "/v1/embeddings", { model: modelPath, input: "hello world", encoding_format: "base64" })).json();
  assertShape(EmbeddingList, base64, "base64 embeddings");
  expect(typeof base64.data[0].embedding).toBe("string");
  decodeBase64Floats(base64.data[0].embedding as string).forEach((value, i) => expect(value).toBeCloseTo(vector[i], 5));

  const tokens = await (await post(baseURL, "/v1/embeddings", { model: modelPath, input: [[10, 11, 12], [13, 14]], encoding_format: "float" })).json();
  assertShape(EmbeddingList, tokens, "embeddings of token ids");
  expect(tokens.data).toHaveLength(2);
  const sameSize = await openai.embeddings.create({ model: modelPath, input: [20, 21], dimensions: vector.length });
  expect(sameSize.data[0].embedding).toHaveLength(vector.length);

  const refusals: Array<[Record<string, unknown>, string, string]> = [
    [{ input: "hello", dimensions: 8 }, "dimensions", `${vector.length} dimensions`],
    [{ input: "" }, "input", "empty"],
    [{ input: ["fine", ""] }, "input.1", "empty"],
    [{ input: [[1, 2], [99999999]] }, "input.1", "vocabulary"],
    [{ input: "hello ".repeat(2000) }, "input", "tokens"],
  ];
  for (const [body, param, text] of refusals) {
    const response = await post(baseURL, "/v1/embeddings", { model: modelPath, ...body });
    expect({ param, status: response.status }).toEqual({ param, status: 400 });
    const error = await response.json();
    assertShape(OpenAiErrorResponse, error, `refusal of ${param}`);
    expect(error.error.param).toBe(param);
    expect(error.error.message).toContain(text);
  }
}

/**
 * A stream that names itself (REQUEST_ID_HEADER, as the gateway does) has its end recorded for
 * REQUEST_ENDS_PATH's long poll: complete with the stream's own usage, or cancelled when its client
 * goes away; a stream that does not name itself is not recorded, and the records need the key.
 */
export async function expectRequestEnds(baseURL: string, modelPath: string): Promise<void> {
  const auth = { authorization: `Bearer ${API_KEY}` };
  const ends = (query: string) => fetch(`${baseURL}${REQUEST_ENDS_PATH}${query}`, { headers: auth }).then((response) => response.json() as Promise<RequestEndsPage>);
  expect((await fetch(`${baseURL}${REQUEST_ENDS_PATH}`)).status).toBe(401);
  expect((await fetch(`${baseURL}${REQUEST_ENDS_PATH}?after=x`, { headers: auth })).status).toBe(400);
  const start = await ends("");
  expect(start).toEqual({ instance: expect.any(String), last: expect.any(Number), lost: false, ends: [] });

  const chat = (id: string | null, maxTokens: number) =>
    fetch(`${baseURL}/v1/chat/completions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", ...(id ? { [REQUEST_ID_HEADER]: id } : {}) },
      body: JSON.stringify({ model: modelPath, messages: [{ role: "user", content: "Count to three." }], max_tokens: maxTokens, temperature: 0, stream: true, stream_options: { include_usage: true } }),
    });
  // A poll waiting from before the stream hears its end.
  const waiting = ends(`?after=${start.last}&wait_ms=20000`);
  await (await chat(null, 4)).text();
  const text = await (await chat("request-one", 6)).text();
  const streamed = text.split("\n\n").filter((event) => event.startsWith("data: {")).map((event) => JSON.parse(event.slice(6))).find((chunk) => chunk.usage)!.usage;
  const heard = await waiting;
  expect(heard).toEqual({
    instance: start.instance,
    last: start.last + 1,
    lost: false,
    ends: [{ seq: start.last + 1, id: "request-one", end: "complete", usage: { promptTokens: streamed.prompt_tokens, completionTokens: 6 } }],
  });

  const aborted = new AbortController();
  const long = await fetch(`${baseURL}/v1/chat/completions`, {
    method: "POST",
    signal: aborted.signal,
    headers: { ...auth, "content-type": "application/json", [REQUEST_ID_HEADER]: "request-two" },
    body: JSON.stringify({ model: modelPath, messages: [{ role: "user", content: "Tell a long story." }], max_tokens: 60, temperature: 0, stream: true }),
  });
  await long.body!.getReader().read();
  aborted.abort();
  const cancelled = await ends(`?after=${heard.last}&wait_ms=20000`);
  expect(cancelled.ends).toEqual([{ seq: heard.last + 1, id: "request-two", end: "cancelled", usage: null }]);
}
