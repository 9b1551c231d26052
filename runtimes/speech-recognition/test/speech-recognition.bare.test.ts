/** The speech-recognition runtime run bare on the tiny whisper model, fed a WAV spoken by espeak-ng. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { expectKeyRequired, expectModelList, expectNonAudioRefused, expectOpenAiUpload, expectTranscribeFormats, expectTraversalRefused, transcribe, wavIn } from "./speech-contract";
import { API_KEY, makeSpeechFixtures, type SpeechFixtures } from "./speech-fixtures";

let cacheDir: string;
let fixtures: SpeechFixtures;
let runtime: RuntimeProcess;
let modelPath: string;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-sr-models-"));
  fixtures = makeSpeechFixtures();
  modelPath = makeTinyModels(cacheDir).speechRecognition;
  runtime = await startRuntime("speech-recognition", ["--model", modelPath, "--api-key", API_KEY, "--input-dir", fixtures.inputDir]);
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
  if (fixtures) rmSync(dirname(fixtures.inputDir), { recursive: true, force: true });
});

describe("speech-recognition runtime, bare", () => {
  test("/transcribe answers in the text, json and verbose_json formats", () => expectTranscribeFormats(runtime.url));

  test("an absolute path inside the input folder is accepted", async () => {
    const response = await transcribe(runtime.url, { audio_path: wavIn(fixtures.inputDir), response_format: "text" });
    expect(response.status).toBe(200);
  });

  test("paths leaving the input folder get 400 naming it", () =>
    expectTraversalRefused(runtime.url, ["../secret.wav", fixtures.outsideFile, "/etc/passwd", "nested/../../secret.wav", "link-out.wav"], fixtures.inputDir));

  test("a file that is not audio gets 415 naming it", () => expectNonAudioRefused(runtime.url));

  test("a missing file gets 404, bad bodies 400", async () => {
    expect((await transcribe(runtime.url, { audio_path: "nothere.wav" })).status).toBe(404);
    expect((await transcribe(runtime.url, { audio_path: "nested/hello.wav", response_format: "srt-ish" })).status).toBe(400);
    expect((await transcribe(runtime.url, {})).status).toBe(400);
  });

  test("OpenAI's multipart /v1/audio/transcriptions in every response_format, through the openai client", () => expectOpenAiUpload(runtime.url, wavIn(fixtures.inputDir)));
  test("timestamp_granularities as a plain form field (curl's -F) too; it needs verbose_json", async () => {
    const upload = async (fields: Array<[string, string]>) => {
      const form = new FormData();
      form.append("file", new Blob([await Bun.file(wavIn(fixtures.inputDir)).arrayBuffer()], { type: "audio/wav" }), "hello.wav");
      for (const [name, value] of fields) form.append(name, value);
      return fetch(`${runtime.url}/v1/audio/transcriptions`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}` }, body: form });
    };
    const plain = await upload([["response_format", "verbose_json"], ["timestamp_granularities", "segment"]]);
    expect(plain.status).toBe(200);
    expect((await plain.json()).segments.length).toBeGreaterThan(0);
    const notVerbose = await upload([["timestamp_granularities[]", "segment"]]);
    expect(notVerbose.status).toBe(400);
    expect((await notVerbose.json()).error).toMatchObject({ param: "timestamp_granularities", message: "timestamp_granularities: needs response_format verbose_json" });
    const unknown = await upload([["response_format", "verbose_json"], ["timestamp_granularities[]", "sentence"]]);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toBe('timestamp_granularities: "sentence" is not one of segment, word');
  });

  test("a field whisper.cpp cannot honour (include[], stream, diarization) or does not know is refused naming it, never dropped", async () => {
    const upload = async (fields: Array<[string, string]>) => {
      const form = new FormData();
      form.append("file", new Blob([await Bun.file(wavIn(fixtures.inputDir)).arrayBuffer()], { type: "audio/wav" }), "hello.wav");
      for (const [name, value] of fields) form.append(name, value);
      const response = await fetch(`${runtime.url}/v1/audio/transcriptions`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}` }, body: form });
      return { status: response.status, error: response.status === 200 ? undefined : (await response.json()).error };
    };
    expect(await upload([["include[]", "logprobs"]])).toMatchObject({ status: 400, error: { param: "include", message: "include: whisper.cpp gives no logprobs of the transcript; leave include out" } });
    expect(await upload([["stream", "true"]])).toMatchObject({ status: 400, error: { param: "stream" } });
    expect(await upload([["known_speaker_names[]", "ann"]])).toMatchObject({ status: 400, error: { param: "known_speaker_names" } });
    expect(await upload([["temprature", "0.2"]])).toMatchObject({ status: 400, error: { param: "temprature", message: "Unrecognized request argument supplied: temprature" } });
    expect((await upload([["stream", "false"], ["chunking_strategy", "auto"]])).status).toBe(200);
  });

  test("the API key is required; health is open", () => expectKeyRequired(runtime.url));
  test("GET /v1/models lists the model in OpenAI's shape, through the openai client", () => expectModelList(runtime.url, modelPath));

  test("metrics count transcriptions and audio seconds", async () => {
    const metrics = await (await fetch(`${runtime.url}/metrics`)).text();
    expect(metrics).toMatch(/^svc_requests_total\{route="\/transcribe",status="200"\} \d+$/m);
    expect(Number(metrics.match(/^svc_audio_seconds_total ([\d.]+)$/m)?.[1])).toBeGreaterThan(1);
  });
});
