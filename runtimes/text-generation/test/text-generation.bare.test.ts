/** The text-generation runtime run bare (`bun run runtime:text-generation`) on the tiny GGUF, driven by the `openai` client. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import {
  API_KEY,
  client,
  expectAuthErrors,
  expectChatCompletion,
  expectCompletion,
  expectConcurrentRequests,
  expectLimitErrors,
  expectModels,
  expectSseFraming,
  expectStreamedChat,
} from "./openai-contract";

let cacheDir: string;
let modelPath: string;
let runtime: RuntimeProcess;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-test-"));
  modelPath = makeTinyModels(cacheDir).textGeneration;
  runtime = await startRuntime("text-generation", ["--model", modelPath, "--api-key", API_KEY, "--max-input-length", "64", "--max-total-tokens", "128"]);
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("text-generation runtime, bare", () => {
  test("chat completion has exactly the fields of spec §4.2", () => expectChatCompletion(client(runtime.url), modelPath));
  test("streamed chat carries the same text as the single response, then [DONE]", () => expectStreamedChat(client(runtime.url), modelPath));
  test("the raw stream is SSE ending with data: [DONE]", () => expectSseFraming(runtime.url));
  test("completions, single and streamed", () => expectCompletion(client(runtime.url), modelPath));
  test("models lists the snapshot path", () => expectModels(client(runtime.url), modelPath));
  test("a wrong or missing key gets 401 with an OpenAI error body", () => expectAuthErrors(runtime.url, modelPath));
  test("requests over --max-input-length or --max-total-tokens get 400", () => expectLimitErrors(client(runtime.url), modelPath));
  test("five concurrent requests are all answered", () => expectConcurrentRequests(client(runtime.url), modelPath));

  test("a stop string ends the text before it, with finish_reason stop", async () => {
    const openai = client(runtime.url);
    const request = { model: modelPath, messages: [{ role: "user" as const, content: "hello" }], temperature: 0 };
    const free = (await openai.chat.completions.create({ ...request, max_tokens: 20 })).choices[0].message.content!;
    const stop = free.slice(4, 6);
    const cut = free.slice(0, free.indexOf(stop));
    const stopped = await openai.chat.completions.create({ ...request, max_tokens: 20, stop: [stop] });
    expect(stopped.choices[0].message.content).toBe(cut);
    expect(stopped.choices[0].finish_reason).toBe("stop");
    expect((stopped.choices[0] as unknown as { stop_reason: string }).stop_reason).toBe(stop);
  });

  test("the same seed gives the same sampled text; top_p is accepted", async () => {
    const openai = client(runtime.url);
    const request = { model: modelPath, messages: [{ role: "user" as const, content: "tell me" }], max_tokens: 12, temperature: 1, top_p: 0.9, seed: 42 };
    const [a, b] = [await openai.chat.completions.create(request), await openai.chat.completions.create(request)];
    expect(a.choices[0].message.content).toBe(b.choices[0].message.content);
  });

  test("bad input gets a 400 OpenAI error, never a 500", async () => {
    const post = (body: string) =>
      fetch(`${runtime.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body });
    for (const body of ["{", JSON.stringify({ messages: [] }), JSON.stringify({ messages: [{ role: "wizard", content: "x" }] }), JSON.stringify({ messages: [{ role: "user", content: "x" }], temperature: 9 })]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ type: "invalid_request_error", message: expect.any(String) });
    }
  });

  test("health is open, metrics count requests and tokens", async () => {
    expect((await fetch(`${runtime.url}/health`)).status).toBe(200);
    const metrics = await (await fetch(`${runtime.url}/metrics`)).text();
    expect(metrics).toMatch(/^svc_requests_total\{route="\/v1\/chat\/completions",status="200"\} \d+$/m);
    expect(metrics).toMatch(/^svc_requests_total\{route="\/v1\/models",status="401"\} \d+$/m);
    expect(Number(metrics.match(/^svc_generated_tokens_total (\d+)$/m)?.[1])).toBeGreaterThan(0);
    expect(Number(metrics.match(/^svc_prompt_tokens_total (\d+)$/m)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^svc_request_duration_seconds_count \d+$/m);
  });
});
