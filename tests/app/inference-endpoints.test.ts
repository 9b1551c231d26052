/**
 * The runtimes' endpoints as users reach them: through a real svc app on Docker, its CLI and the
 * gateway's /proxy, with the official `openai` client; every answer checked against OpenAI's shapes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import {
  assertShape,
  ChatCompletion,
  ChatCompletionChunk,
  EmbeddingList,
  ModelList,
  OpenAiErrorResponse,
  segmentNumberProblems,
  srtProblems,
  TextCompletion,
  TranscriptionVerboseJson,
} from "@svc/contracts/openai";
import { fakeRuntimeImage, runSvc, sh, SPEECH_MODEL, startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const KEY = "sk-endpoints-test";
let tiny: TinyApp;

beforeAll(async () => {
  tiny = await startAppWithTinyModels();
}, 600_000);

afterAll(async () => {
  await tiny?.cleanup();
});

/** This app's containers (the orchestrator labels them with a hash of its home folder). */
function containerCount(): number {
  const label = createHash("sha256").update(tiny.app.home).digest("hex").slice(0, 16);
  return sh(["docker", "ps", "-aq", "--filter", `label=svc.home=${label}`]).split("\n").filter(Boolean).length;
}

/** `svc run ARGS` until the service is HEALTHY; its id. */
async function healthyService(args: string[]): Promise<string> {
  const run = await runSvc(["run", ...args], tiny.env);
  expect(run.code).toBe(0);
  const id = run.stdout.trim();
  await tiny.reaches(id, "HEALTHY");
  return id;
}

const stopService = async (id: string | undefined) => {
  if (id) await tiny.client.services.stop(id);
};

const proxied = (id: string, path: string, init: RequestInit = {}) =>
  fetch(`${tiny.app.url}/proxy/${id}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...init.headers } });

describe("engine options at svc run", () => {
  test("an unknown option or a bad value exits non-zero before anything starts: no record, no container", async () => {
    const before = { records: (await tiny.client.services.list({ all: true })).length, containers: containerCount() };
    const bogus = await runSvc(["run", "text-generation", TEXT_MODEL, "--bogus-flag", "1"], tiny.env);
    expect(bogus.code).not.toBe(0);
    expect(bogus.stdout).toBe("");
    expect(bogus.stderr).toContain("unknown engine option --bogus-flag");
    expect(bogus.stderr).toContain("--ctx-size, -c N");
    const badValue = await runSvc(["run", "text-generation", TEXT_MODEL, "--dry-run", "--ctx-size", "big"], tiny.env);
    expect(badValue.code).not.toBe(0);
    expect(badValue.stderr).toContain('--ctx-size "big": use a whole number');
    expect({ records: (await tiny.client.services.list({ all: true })).length, containers: containerCount() }).toEqual(before);
  });

  test("a renamed copy of svc's runtime image (docker tag) is known by its label: its engine options are checked as under its own name", async () => {
    const copy = "my-lab/llm-runtime:copy";
    sh(["docker", "tag", tiny.images["text-generation"], copy]);
    try {
      const bogus = await runSvc(["run", "text-generation", TEXT_MODEL, "--image", copy, "--dry-run", "--bogus-flag", "1"], tiny.env);
      expect(bogus.code).not.toBe(0);
      expect(bogus.stderr).toContain("unknown engine option --bogus-flag");
      const ignored = await runSvc(["run", "text-generation", TEXT_MODEL, "--image", copy, "--dry-run", "-ngl", "99"], tiny.env);
      expect(ignored.code).toBe(0);
      expect(ignored.stderr).toContain("warning: --n-gpu-layers is ignored");
      // Another image (no svc runtime label) takes any engine arguments: svc cannot know its options.
      const other = await runSvc(["run", "text-generation", TEXT_MODEL, "--image", fakeRuntimeImage(), "--dry-run", "--bogus-flag", "1"], tiny.env);
      expect(other.code).toBe(0);
      expect(other.stdout).toContain("--bogus-flag 1");
    } finally {
      sh(["docker", "rmi", copy]);
    }
  });

  test("--dry-run shows the options as given and warns about one that does nothing on CPU", async () => {
    const dry = await runSvc(["run", "text-generation", TEXT_MODEL, "--dry-run", "--ctx-size", "512", "-ngl", "99", "--parallel=2"], tiny.env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(" --ctx-size 512 -ngl 99 --parallel=2");
    expect(dry.stderr).toContain("warning: --n-gpu-layers is ignored");
  });
});

describe("a text-generation service through /proxy", () => {
  let id: string;
  beforeAll(async () => {
    id = await healthyService(["text-generation", TEXT_MODEL, "--name", "endpoints", "--api-key", KEY, "--ctx-size", "512"]);
  }, 120_000);
  afterAll(() => stopService(id));

  test("--ctx-size 512 reaches the runtime: its log line, /v1/models and a refused long prompt say so", async () => {
    expect((await runSvc(["logs", id, "--tail", "20"], tiny.env)).stdout).toMatch(/ready on .*context 512,/);
    const models = await (await proxied(id, "/v1/models")).json();
    assertShape(ModelList, models, "model list through /proxy");
    expect((models.data[0] as { max_model_len?: number }).max_model_len).toBe(512);
    const long = await proxied(id, "/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hello world ".repeat(300) }], max_tokens: 2 }) });
    expect(long.status).toBe(400);
    const error = await long.json();
    assertShape(OpenAiErrorResponse, error, "the refusal of a long prompt");
    expect(error.error.message).toContain("512 total tokens");
  });

  test("chat, every stream chunk and completions keep OpenAI's shapes through the gateway", async () => {
    const chat = await (await proxied(id, "/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "Hello" }], max_tokens: 4, temperature: 0 }) })).json();
    assertShape(ChatCompletion, chat, "chat completion through /proxy");
    const stream = await proxied(id, "/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "Hello" }], max_tokens: 4, temperature: 0, stream: true, stream_options: { include_usage: true } }),
    });
    const events = (await stream.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, "")));
    chunks.forEach((chunk, i) => assertShape(ChatCompletionChunk, chunk, `chunk ${i} through /proxy`));
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 4 } });
    const completion = await (await proxied(id, "/v1/completions", { method: "POST", body: JSON.stringify({ prompt: "Hello", max_tokens: 3, temperature: 0 }) })).json();
    assertShape(TextCompletion, completion, "text completion through /proxy");
    const unauthorised = await fetch(`${tiny.app.url}/proxy/${id}/v1/models`, { headers: { authorization: "Bearer wrong" } });
    expect(unauthorised.status).toBe(401);
    assertShape(OpenAiErrorResponse, await unauthorised.json(), "401 through /proxy");
  });

  test("the gateway's own errors in front of a service are OpenAI's too: an unknown service is a 404 the openai client reads", async () => {
    const openai = new OpenAI({ baseURL: `${tiny.app.url}/proxy/no-such-service/v1`, apiKey: KEY, maxRetries: 0 });
    const unknown = await openai.models.list().catch((caught) => caught);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown.error).toMatchObject({ type: "invalid_request_error", code: "not_found", param: null });
    expect(unknown.message).toContain("no-such-service");
    assertShape(OpenAiErrorResponse, await (await proxied("no-such-service", "/v1/chat/completions", { method: "POST", body: "{}" })).json(), "404 through /proxy");
  });

  test("embeddings through /proxy/<id>/v1/embeddings with the openai client", async () => {
    const openai = new OpenAI({ baseURL: `${tiny.app.url}/proxy/${id}/v1`, apiKey: KEY, maxRetries: 0 });
    const one = await openai.embeddings.create({ model: TEXT_MODEL, input: "hello world" });
    const batch = await openai.embeddings.create({ model: TEXT_MODEL, input: ["hello world", "another text"] });
    expect(batch.data.map((entry) => entry.index)).toEqual([0, 1]);
    expect(batch.data[0].embedding).toEqual(one.data[0].embedding);
    expect(Math.hypot(...one.data[0].embedding)).toBeCloseTo(1, 4);
    for (const encoding_format of ["float", "base64"]) {
      const raw = await (await proxied(id, "/v1/embeddings", { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, input: ["a", "b"], encoding_format }) })).json();
      assertShape(EmbeddingList, raw, `${encoding_format} embeddings through /proxy`);
    }
    const refused = await openai.embeddings.create({ model: TEXT_MODEL, input: "hello", dimensions: 3 }).catch((caught) => caught);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused.error).toMatchObject({ param: "dimensions" });
  });
});

describe("a speech service through /proxy", () => {
  let id: string;
  let inputs: string;
  beforeAll(async () => {
    inputs = join(tiny.modelsHome, "audio-host");
    mkdirSync(join(inputs, "day1"), { recursive: true });
    sh(["espeak-ng", "-w", join(inputs, "day1", "hello.wav"), "hello world"]);
    writeFileSync(join(tiny.app.home, "elsewhere.wav"), "not in the input folder");
    id = await healthyService(["speech-recognition", SPEECH_MODEL, "--input-dir", inputs]);
  }, 120_000);
  afterAll(() => stopService(id));

  const transcribe = (audio_path: string) => proxied(id, "/transcribe", { method: "POST", body: JSON.stringify({ audio_path, response_format: "text" }) });

  test("/transcribe takes the absolute host path of a file in the input folder, and refuses one outside naming the folder", async () => {
    const absolute = join(inputs, "day1", "hello.wav");
    const answer = await transcribe(absolute);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ audio_path: absolute, task: "transcribe", segments: null });
    expect((await transcribe("day1/hello.wav")).status).toBe(200);
    for (const outside of [join(tiny.app.home, "elsewhere.wav"), `${inputs}/../elsewhere.wav`]) {
      const refused = await transcribe(outside);
      expect(refused.status).toBe(400);
      const body = await refused.json();
      assertShape(OpenAiErrorResponse, body, `the refusal of ${outside}`);
      expect(body.error.message).toContain(`inside the input folder ${inputs}`);
    }
  });

  test("/v1/audio/transcriptions answers verbose_json and srt in OpenAI's shapes through the gateway", async () => {
    const openai = new OpenAI({ baseURL: `${tiny.app.url}/proxy/${id}/v1`, apiKey: "unused", maxRetries: 0 });
    assertShape(ModelList, await (await proxied(id, "/v1/models")).json(), "the speech service's model list through /proxy");
    expect((await openai.models.list()).data).toHaveLength(1);
    const file = () => toFile(readFileSync(join(inputs, "day1", "hello.wav")), "hello.wav", { type: "audio/wav" });
    const verbose = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "verbose_json" });
    assertShape(TranscriptionVerboseJson, verbose, "verbose_json through /proxy");
    expect(verbose.segments!.length).toBeGreaterThan(0);
    for (const segment of verbose.segments!) expect(segmentNumberProblems(segment)).toEqual([]);
    const srt = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "srt" });
    expect(srtProblems(String(srt)).problems).toEqual([]);
  });
});
