/** The speech-recognition runtime in its image: the input folder and model cache mounted read-only. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startRuntimeContainer, type RuntimeContainer } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { expectKeyRequired, expectNonAudioRefused, expectOpenAiUpload, expectTranscribeFormats, expectTraversalRefused, transcribe, wavIn } from "./speech-contract";
import { API_KEY, makeSpeechFixtures, type SpeechFixtures } from "./speech-fixtures";

let cacheDir: string;
let fixtures: SpeechFixtures;
let runtime: RuntimeContainer;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-sr-container-models-"));
  fixtures = makeSpeechFixtures();
  runtime = await startRuntimeContainer(
    "speech-recognition",
    ["--model", makeTinyModels(cacheDir).speechRecognition, "--api-key", API_KEY, "--input-dir", "/input", "--input-host-dir", fixtures.inputDir],
    [
      { source: cacheDir, target: cacheDir },
      { source: fixtures.inputDir, target: "/input" },
    ],
  );
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
  if (fixtures) rmSync(dirname(fixtures.inputDir), { recursive: true, force: true });
});

describe("speech-recognition runtime, in its container", () => {
  test("/transcribe answers in the text, json and verbose_json formats", () => expectTranscribeFormats(runtime.url));
  test("an absolute path on the host, inside the mounted folder, is transcribed", async () => {
    const response = await transcribe(runtime.url, { audio_path: wavIn(fixtures.inputDir), response_format: "text" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ audio_path: wavIn(fixtures.inputDir), task: "transcribe" });
  });
  test("paths leaving the input folder get 400 naming its host path", () =>
    expectTraversalRefused(runtime.url, ["../etc/passwd", "/etc/passwd", "nested/../../etc/hostname", "link-out.wav", fixtures.outsideFile], fixtures.inputDir));
  test("a file that is not audio gets 415 (no ffmpeg in the image)", () => expectNonAudioRefused(runtime.url));
  test("OpenAI's multipart upload in every response_format", () => expectOpenAiUpload(runtime.url, wavIn(fixtures.inputDir)));
  test("the API key is required", () => expectKeyRequired(runtime.url));
});
