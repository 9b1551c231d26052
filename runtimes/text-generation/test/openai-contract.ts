/**
 * Checks shared by the bare and the container tests: the text-generation runtime as the official
 * `openai` client sees it.
 */
import { expect } from "bun:test";
import OpenAI from "openai";

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
  expect(Object.keys(completion).sort()).toEqual(["choices", "created", "id", "model", "object", "prompt_logprobs", "usage"]);
  expect(completion.id).toMatch(/^chatcmpl-\w+$/);
  expect(completion.object).toBe("chat.completion");
  expect(completion.model).toBe(modelPath);
  expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(120);
  const [choice] = completion.choices;
  expect(Object.keys(choice).sort()).toEqual(["finish_reason", "index", "logprobs", "message", "stop_reason"]);
  expect(choice.index).toBe(0);
  expect(choice.message).toEqual({ role: "assistant", reasoning_content: null, content: expect.any(String), tool_calls: [] } as never);
  expect(choice.message.content!.length).toBeGreaterThan(0);
  expect(choice.finish_reason).toBe("length");
  expect(choice.logprobs).toBeNull();
  expect(completion.usage).toEqual({ prompt_tokens: expect.any(Number), completion_tokens: 8, total_tokens: expect.any(Number), prompt_tokens_details: null } as never);
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

/** The raw stream: SSE `data:` events ending with `data: [DONE]`. */
export async function expectSseFraming(baseURL: string): Promise<void> {
  const response = await fetch(`${baseURL}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    // Greedy decoding, so the tiny model cannot end the answer early by sampling its end token.
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 3, temperature: 0, stream: true }),
  });
  expect(response.headers.get("content-type")).toStartWith("text/event-stream");
  const events = (await response.text()).split("\n\n").filter(Boolean);
  expect(events.every((event) => event.startsWith("data: "))).toBe(true);
  expect(events.at(-1)).toBe("data: [DONE]");
  const last = JSON.parse(events.at(-2)!.slice(6));
  expect(last.choices[0]).toMatchObject({ finish_reason: "length", delta: {} });
}

export async function expectCompletion(openai: OpenAI, modelPath: string): Promise<void> {
  const completion = await openai.completions.create({ model: modelPath, prompt: "hello world", max_tokens: 5, temperature: 0 });
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
  expect((await bare.json()).error.message).toContain("Authorization: Bearer");
}

/** The runtime must have been started with --max-input-length 64 --max-total-tokens 128. */
export async function expectLimitErrors(openai: OpenAI, modelPath: string): Promise<void> {
  const longInput = await openai.chat.completions
    .create({ model: modelPath, messages: [{ role: "user", content: "hello world ".repeat(60) }], max_tokens: 2 })
    .catch((caught) => caught);
  expect(longInput).toBeInstanceOf(OpenAI.BadRequestError);
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
