/**
 * One OpenAI endpoint for every model: the gateway's /v1 with the official `openai` client, keys
 * from `svc key create`, two replicas of one model sharing load (one stopped mid-run), usage that
 * matches the answers' `usage` exactly, and /metrics read with a Prometheus text-format parser.
 * A real app on Docker with debug off, running the tiny models.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import { assertShape, ChatCompletion, ChatCompletionChunk, OpenAiErrorResponse, segmentNumberProblems, TranscriptionVerboseJson } from "@svc/contracts/openai";
import type { UsageReport } from "@svc/contracts";
import { writeSnapshot } from "@svc/runtime-tiny-models";
import { eventually, metricSum, parseMetricsText, runSvc, SPEECH_MODEL, startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const TOKEN = "v1-endpoint-test-token-0123456789";
/** A second text model: the tiny llama's GGUF under another repo id. */
const OTHER_MODEL = "svc-tiny/tiny-llama-gguf-b";
let tiny: TinyApp;
const ids = { a1: "", a2: "", b: "", speech: "" };

const v1 = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${tiny.app.url}/v1${path}`, { ...init, headers: { authorization: `Bearer ${init.key ?? TOKEN}`, "content-type": "application/json", ...init.headers } });

const openaiWith = (apiKey: string) => new OpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey, maxRetries: 0 });

async function createKey(args: string[]): Promise<string> {
  const created = await runSvc(["key", "create", ...args], tiny.env);
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  return created.stdout.split("\n")[0].trim();
}

async function usageReport(args: string[]): Promise<UsageReport> {
  const result = await runSvc(["usage", "--json", ...args], tiny.env);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function metrics() {
  const response = await fetch(`${tiny.app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return parseMetricsText(await response.text());
}

/** A second of 16 kHz mono PCM: a tone (the tiny whisper's transcript means nothing anyway). */
function toneWav(): Uint8Array {
  const rate = 16_000;
  const samples = rate;
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36);
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return new Uint8Array(buffer);
}

async function run(args: string[]): Promise<string> {
  const result = await runSvc(["run", ...args], tiny.env);
  expect(result.code).toBe(0);
  return result.stdout.trim();
}

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  const models = join(tiny.modelsHome, "models");
  const snapshots = join(models, "models--svc-tiny--tiny-llama-gguf", "snapshots");
  const snapshot = join(snapshots, readdirSync(snapshots)[0]);
  writeSnapshot(
    models,
    OTHER_MODEL,
    readdirSync(snapshot).map((name) => ({ name, bytes: name === "README.md" ? new TextEncoder().encode("# tiny llama, second repo\n") : new Uint8Array(readFileSync(join(snapshot, name))) })),
  );
  await tiny.client.models.refresh("default");
  // Each service has its own API key, which no /v1 caller ever sends: the gateway does.
  ids.a1 = await run(["text-generation", TEXT_MODEL, "--name", "llama-1", "--api-key", "own-key-a1"]);
  ids.a2 = await run(["text-generation", TEXT_MODEL, "--name", "llama-2", "--api-key", "own-key-a2"]);
  ids.b = await run(["text-generation", OTHER_MODEL, "--name", "llama-b", "--api-key", "own-key-b"]);
  ids.speech = await run(["speech-recognition", SPEECH_MODEL, "--name", "whisper"]);
  for (const id of Object.values(ids)) await tiny.reaches(id, "HEALTHY", 180_000);
}, 900_000);

afterAll(async () => {
  await tiny?.cleanup();
});

describe("/v1 with the openai client and a key from svc key create", () => {
  let key: string;
  beforeAll(async () => {
    key = await createKey(["--name", "alice"]);
  });

  test("the key is printed once; svc key ls shows its prefix only", async () => {
    expect(key).toMatch(/^svc-k-/);
    const listed = await runSvc(["key", "ls"], tiny.env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("alice");
    expect(listed.stdout).toContain(`${key.slice(0, 10)}…`);
    expect(listed.stdout).not.toContain(key);
  });

  test("models.list() lists every served model by repo id, with its replicas", async () => {
    const list = await openaiWith(key).models.list();
    const byId = new Map(list.data.map((model) => [model.id, model as unknown as Record<string, unknown>]));
    expect([...byId.keys()].sort()).toEqual([OTHER_MODEL, TEXT_MODEL, SPEECH_MODEL].sort());
    expect(byId.get(TEXT_MODEL)).toMatchObject({ object: "model", owned_by: "svc-tiny", replicas: 2, status: "HEALTHY", task: "text-generation" });
    const one = await openaiWith(key).models.retrieve("llama-b");
    expect(one.id).toBe(OTHER_MODEL);
  });

  test("chats, plain and streamed, with two different models chosen only by model", async () => {
    const openai = openaiWith(key);
    for (const model of [TEXT_MODEL, OTHER_MODEL]) {
      const { data: chat, response } = await openai.chat.completions.create({ model, messages: [{ role: "user", content: "Hello" }], max_tokens: 4, temperature: 0 }).withResponse();
      assertShape(ChatCompletion, chat, `chat with ${model} through /v1`);
      const served = response.headers.get("x-svc-service");
      expect(model === TEXT_MODEL ? [ids.a1, ids.a2] : [ids.b]).toContain(served!);
      const stream = await openai.chat.completions.create({ model, messages: [{ role: "user", content: "Hello" }], max_tokens: 4, temperature: 0, stream: true });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      chunks.forEach((chunk, i) => assertShape(ChatCompletionChunk, chunk, `chunk ${i} of ${model} through /v1`));
      // The gateway asked for usage itself: that chunk is not passed to a client that did not ask.
      expect(chunks.every((chunk) => chunk.choices.length === 1 && !("usage" in chunk))).toBe(true);
      expect(chunks.at(-1)!.choices[0].finish_reason).not.toBeNull();
    }
  });

  test("the runtime accepts the repo id, repo@revision and the service name as model", async () => {
    const revision = (await tiny.client.services.get(ids.b)).revision;
    for (const model of [OTHER_MODEL, `${OTHER_MODEL}@${revision.slice(0, 7)}`, "llama-b"]) {
      const response = await v1("/chat/completions", { method: "POST", key, body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }], max_tokens: 2 }) });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-svc-service")).toBe(ids.b);
    }
  });

  test("transcribes speech via audio.transcriptions.create, verbose with segment timestamps", async () => {
    const transcript = await openaiWith(key).audio.transcriptions.create({ model: SPEECH_MODEL, file: await toFile(toneWav(), "tone.wav", { type: "audio/wav" }) });
    expect(typeof transcript.text).toBe("string");
    // verbose_json in OpenAI's schema, with the engine's numbers where it requires numbers; the
    // client sends timestamp_granularities as `timestamp_granularities[]` form fields.
    const verbose = await openaiWith(key).audio.transcriptions.create({
      model: SPEECH_MODEL,
      file: await toFile(toneWav(), "tone.wav", { type: "audio/wav" }),
      response_format: "verbose_json",
      timestamp_granularities: ["segment"],
    });
    assertShape(TranscriptionVerboseJson, verbose, "verbose_json through /v1");
    expect(verbose.segments!.length).toBeGreaterThan(0);
    for (const segment of verbose.segments!) expect(segmentNumberProblems(segment)).toEqual([]);
  });

  test("embeddings are routed too", async () => {
    const embeddings = await openaiWith(key).embeddings.create({ model: TEXT_MODEL, input: "hello" });
    expect(Math.hypot(...embeddings.data[0].embedding)).toBeCloseTo(1, 4);
  });

  test("an unknown model is a 404 in OpenAI's shape listing what is served; no key is a 401", async () => {
    const missing = await openaiWith(key).chat.completions.create({ model: "nobody/nothing", messages: [{ role: "user", content: "Hi" }] }).catch((caught) => caught);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.error).toMatchObject({ code: "model_not_found", type: "invalid_request_error" });
    expect(missing.message).toContain(TEXT_MODEL);
    expect(missing.message).toContain(OTHER_MODEL);
    const anonymous = await fetch(`${tiny.app.url}/v1/models`);
    expect(anonymous.status).toBe(401);
    assertShape(OpenAiErrorResponse, await anonymous.json(), "401 from /v1");
    const wrong = await openaiWith("not-a-key").models.list().catch((caught) => caught);
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe("keys limited to models, removed keys", () => {
  test("a key limited to one model gets 403 on another and sees only its model; a removed key gets 401 on its next request", async () => {
    const key = await createKey(["--name", "bob", "--models", TEXT_MODEL, "--expires", "30d"]);
    const openai = openaiWith(key);
    const allowed = await openai.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hi" }], max_tokens: 2 });
    expect(allowed.choices).toHaveLength(1);
    const refused = await openai.chat.completions.create({ model: OTHER_MODEL, messages: [{ role: "user", content: "Hi" }], max_tokens: 2 }).catch((caught) => caught);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(refused.error).toMatchObject({ code: "model_not_allowed" });
    expect((await openai.models.list()).data.map((model) => model.id)).toEqual([TEXT_MODEL]);

    const removed = await runSvc(["key", "rm", "bob"], tiny.env);
    expect(removed.code).toBe(0);
    const after = await openai.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hi" }], max_tokens: 2 }).catch((caught) => caught);
    expect(after).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(after.error).toMatchObject({ code: "invalid_api_key" });
  });
});

describe("usage and metrics", () => {
  test("a stream from svc's runtime passes untouched: its end and usage come from the runtime's records", async () => {
    const openai = openaiWith(TOKEN);
    const streamed = async () => {
      const stream = await openai.chat.completions.create({ model: OTHER_MODEL, messages: [{ role: "user", content: "Hello" }], max_tokens: 4, temperature: 0, stream: true, stream_options: { include_usage: true } });
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) usage = chunk.usage ?? usage;
      return usage!;
    };
    // The first stream to a service is read on its way while the gateway asks the service whether it keeps records.
    for (let tries = 0; tries < 20; tries++) {
      const before = await metrics();
      const usage = await streamed();
      let after = before;
      const delta = (name: string, labels: Record<string, string>) => metricSum(after, name, labels) - metricSum(before, name, labels);
      await eventually(
        async () => {
          after = await metrics();
          return delta("svc_v1_streams_total", { service: "llama-b" }) === 1;
        },
        5000,
        "the stream's outcome",
      );
      if (delta("svc_v1_streams_total", { service: "llama-b", end_from: "record" }) === 0) {
        expect(delta("svc_v1_streams_total", { service: "llama-b", end_from: "read" })).toBe(1);
        continue;
      }
      expect(delta("svc_v1_tokens_total", { service: "llama-b", kind: "prompt" })).toBe(usage.prompt_tokens);
      expect(delta("svc_v1_tokens_total", { service: "llama-b", kind: "completion" })).toBe(4);
      return;
    }
    throw new Error("no stream's end came from the runtime's records");
  });

  test("svc usage shows exactly the tokens of the answers' usage, streams included; /metrics counts the requests", async () => {
    const key = await createKey(["--name", "carol"]);
    const openai = openaiWith(key);
    const before = await metrics();
    const messages = [{ role: "user" as const, content: "Count the tokens" }];
    let prompt = 0;
    let completion = 0;
    for (const model of [TEXT_MODEL, OTHER_MODEL]) {
      const chat = await openai.chat.completions.create({ model, messages, max_tokens: 5, temperature: 0 });
      prompt += chat.usage!.prompt_tokens;
      completion += chat.usage!.completion_tokens;
      const stream = await openai.chat.completions.create({ model, messages, max_tokens: 5, temperature: 0, stream: true, stream_options: { include_usage: true } });
      for await (const chunk of stream) {
        if (chunk.usage) {
          prompt += chunk.usage.prompt_tokens;
          completion += chunk.usage.completion_tokens;
        }
      }
      const completionAnswer = await openai.completions.create({ model, prompt: "Once", max_tokens: 3, temperature: 0 });
      prompt += completionAnswer.usage!.prompt_tokens;
      completion += completionAnswer.usage!.completion_tokens;
    }
    const refused = await openai.chat.completions.create({ model: "nobody/nothing", messages }).catch((caught) => caught);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);

    const report = await usageReport(["--by", "key", "--since", "1h"]);
    const carol = report.groups.find((group) => group.group === "carol")!;
    expect(carol).toMatchObject({ requests: 7, errors: 1, promptTokens: prompt, completionTokens: completion });
    const table = await runSvc(["usage", "--by", "model"], tiny.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(OTHER_MODEL);
    expect((await usageReport(["--by", "service"])).services.find((service) => service.id === ids.a1)).toMatchObject({ engine: "docker", gpuHours: null });

    const after = await metrics();
    const delta = (name: string, labels: Record<string, string>) => metricSum(after, name, labels) - metricSum(before, name, labels);
    for (const model of [TEXT_MODEL, OTHER_MODEL]) {
      expect(delta("svc_v1_requests_total", { model, endpoint: "/v1/chat/completions", status: "200" })).toBe(2);
      expect(delta("svc_v1_requests_total", { model, endpoint: "/v1/completions", status: "200" })).toBe(1);
    }
    // A model nothing serves is not a label of its own (callers could make up any number).
    expect(delta("svc_v1_requests_total", { model: "(not served)", status: "404" })).toBe(1);
    expect(delta("svc_v1_errors_total", { model: "(not served)" })).toBe(1);
    expect(delta("svc_v1_tokens_total", { kind: "prompt" })).toBe(prompt);
    expect(delta("svc_v1_tokens_total", { kind: "completion" })).toBe(completion);
    expect(after.get("svc_v1_request_duration_seconds")!.type).toBe("HISTOGRAM");
    expect(delta("svc_v1_request_duration_seconds", { model: OTHER_MODEL, service: "llama-b" })).toBe(3);
    expect(metricSum(after, "svc_services", { status: "HEALTHY" })).toBe(4);
    expect(metricSum(after, "svc_services_live", { profile: "default" })).toBe(4);
    expect(metricSum(after, "svc_reconcile_tick_seconds")).toBeGreaterThan(0);
    expect(after.has("svc_reconcile_ssh_round_trips")).toBe(true);
    expect(after.has("svc_v1_in_flight")).toBe(true);
    expect((await fetch(`${tiny.app.url}/metrics`)).status).toBe(401);
  });
});

describe("two services of one model", () => {
  const chat = (i: number) =>
    v1("/chat/completions", { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: `Request ${i}` }], max_tokens: 3 }) });

  test("40 concurrent requests are spread over both", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(i)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const served = answers.map((answer) => answer.headers.get("x-svc-service"));
    await Promise.all(answers.map((answer) => answer.json()));
    expect(new Set(served)).toEqual(new Set([ids.a1, ids.a2]));
  });

  test("stopping one mid-run loses no request that had not started on it; later ones all go to the other", async () => {
    const before = await usageReport(["--by", "service", "--since", "1h"]);
    const settle = (answers: Promise<Response>[]) =>
      Promise.all(
        answers.map(async (answer) => {
          let response: Response;
          try {
            response = await answer;
          } catch {
            return { status: 0, service: null };
          }
          const service = response.headers.get("x-svc-service");
          try {
            await response.text();
            return { status: response.status, service };
          } catch {
            return { status: -1, service };
          }
        }),
      );
    const first = Array.from({ length: 20 }, (_, i) => chat(i));
    await Promise.race(first);
    const stopped = tiny.client.services.stop(ids.a2);
    const second = Array.from({ length: 20 }, (_, i) => chat(100 + i));
    await stopped;
    const afterStop = await settle(Array.from({ length: 10 }, (_, i) => chat(200 + i)));
    const results = [...(await settle(first)), ...(await settle(second))];
    expect(afterStop).toEqual(Array(10).fill({ status: 200, service: ids.a1 }));
    // Only a request already under way on the stopped service may be lost; every other one was answered (by the other).
    const lost = results.filter((answer) => answer.status !== 200);
    expect(lost.filter((answer) => answer.service !== ids.a2)).toEqual([]);
    const after = await usageReport(["--by", "service", "--since", "1h"]);
    const errorsOn = (report: UsageReport, name: string) => report.groups.find((group) => group.group === name)?.errors ?? 0;
    expect(errorsOn(after, "llama-1")).toBe(errorsOn(before, "llama-1"));
    const models = (await openaiWith(TOKEN).models.list()).data.find((model) => model.id === TEXT_MODEL) as unknown as { replicas: number };
    expect(models.replicas).toBe(1);
  });
});
