/** The text-generation runtime run bare (`bun run runtime:text-generation`) on the tiny GGUF, driven by the `openai` client. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { assertShape, ModelList, OpenAiErrorResponse } from "@svc/contracts/openai";
import {
  API_KEY,
  client,
  expectAuthErrors,
  expectChatCompletion,
  expectCompletion,
  expectConcurrentRequests,
  expectEmbeddings,
  expectLimitErrors,
  expectModels,
  expectRequestEnds,
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
  test("chat completion has the fields of spec §4.2 and OpenAI's schema", () => expectChatCompletion(client(runtime.url), modelPath));
  test("streamed chat carries the same text as the single response, then [DONE]", () => expectStreamedChat(client(runtime.url), modelPath));
  test("every raw stream chunk has OpenAI's chunk shape, then data: [DONE]", () => expectSseFraming(runtime.url));
  test("completions, single and streamed", () => expectCompletion(client(runtime.url), modelPath));
  test("models lists the snapshot path", () => expectModels(client(runtime.url), modelPath));
  test("a wrong or missing key gets 401 with an OpenAI error body", () => expectAuthErrors(runtime.url, modelPath));
  test("requests over --max-input-length or --max-total-tokens get 400", () => expectLimitErrors(client(runtime.url), modelPath));
  test("five concurrent requests are all answered", () => expectConcurrentRequests(client(runtime.url), modelPath));
  test("a stream the gateway names has its end and usage recorded for the gateway's long poll", () => expectRequestEnds(runtime.url, modelPath));
  test("embeddings: the client's base64, floats, batches, token ids and clear refusals", () => expectEmbeddings(client(runtime.url), runtime.url, modelPath));

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
      const error = await response.json();
      assertShape(OpenAiErrorResponse, error, `the answer to ${body}`);
      expect(error.error).toMatchObject({ type: "invalid_request_error", message: expect.any(String) });
    }
  });

  test("an image part is refused with a 400 naming it, never answered without the image", async () => {
    const image = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: image } }] },
    ];
    for (const stream of [false, true]) {
      const response = await fetch(`${runtime.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ model: modelPath, messages, stream }),
      });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error).toMatchObject({ type: "invalid_request_error", code: "unsupported_content", param: "messages.1.content.1" });
      expect(error.message).toContain("the CPU runtime (llama.cpp) serves text only; run this model on vLLM or SGLang");
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

describe("text-generation runtime, bare, with llama.cpp server options", () => {
  let tuned: RuntimeProcess;
  beforeAll(async () => {
    tuned = await startRuntime("text-generation", ["--model", modelPath, "--api-key", API_KEY, "--ctx-size", "512", "-np", "2", "--batch-size", "64", "--seed", "7", "-t", "1", "--n-gpu-layers", "99"]);
  });
  afterAll(async () => {
    await tuned?.stop();
  });

  test("the options reach llama.cpp: the log line and /v1/models show them, -ngl gets a notice", async () => {
    expect(tuned.output()).toContain("notice: --n-gpu-layers 99 is ignored");
    expect(tuned.output()).toMatch(/ready on .*context 512, parallel 2, threads 1, batch 64\)/);
    const models = await (await fetch(`${tuned.url}/v1/models`, { headers: { authorization: `Bearer ${API_KEY}` } })).json();
    assertShape(ModelList, models, "model list");
    expect((models.data[0] as { max_model_len?: number }).max_model_len).toBe(512);
  });

  test("a prompt longer than --ctx-size is refused naming the context", async () => {
    const refused = await client(tuned.url)
      .chat.completions.create({ model: modelPath, messages: [{ role: "user", content: "hello world ".repeat(300) }], max_tokens: 2 })
      .catch((caught) => caught);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: "context_length_exceeded", param: "messages" });
    expect(refused.error.message).toContain("512 total tokens (the model's context)");
  });

  test("--seed makes requests without a seed sample the same text; two sequences serve concurrent callers", async () => {
    const openai = client(tuned.url);
    const request = { model: modelPath, messages: [{ role: "user" as const, content: "tell me" }], max_tokens: 12, temperature: 1 };
    const answers = await Promise.all([openai.chat.completions.create(request), openai.chat.completions.create(request), openai.chat.completions.create(request)]);
    expect(new Set(answers.map((answer) => answer.choices[0].message.content)).size).toBe(1);
    expect(answers.every((answer) => answer.usage?.completion_tokens === 12)).toBe(true);
  });

  test("an unknown or malformed engine option stops the runtime with exit code 2 and the list", async () => {
    for (const bad of [["--bogus-flag", "1"], ["--ctx-size", "big"]]) {
      const child = Bun.spawnSync([process.execPath, "run", "runtime:text-generation", "--", "--model", modelPath, ...bad], { cwd: new URL("../../..", import.meta.url).pathname, stderr: "pipe" });
      expect(child.exitCode).toBe(2);
      expect(child.stderr.toString()).toContain(bad[0]);
      expect(child.stderr.toString()).toContain("--ctx-size, -c N");
    }
  });
});
