/** Checks shared by the bare and the container tests of the speech-recognition runtime. */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import { assertShape, ModelList, OpenAiErrorResponse, segmentNumberProblems, srtProblems, TranscriptionJson, TranscriptionSegment, TranscriptionVerboseJson, vttProblems } from "@svc/contracts/openai";
import { API_KEY } from "./speech-fixtures";

export function transcribe(baseURL: string, body: unknown, apiKey = API_KEY): Promise<Response> {
  return fetch(`${baseURL}/transcribe`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A verbose segment carries whisper.cpp's own numbers in OpenAI's types (segmentNumberProblems says what they must be). */
export function expectEngineNumbers(segment: Record<string, unknown>, what: string): void {
  assertShape(TranscriptionSegment, segment, what);
  expect(segmentNumberProblems(segment as never)).toEqual([]);
}

export async function expectTranscribeFormats(baseURL: string): Promise<void> {
  const text = await transcribe(baseURL, { audio_path: "nested/hello.wav", response_format: "text" });
  expect(text.status).toBe(200);
  const textBody = await text.json();
  expect(textBody).toEqual({ audio_path: "nested/hello.wav", text: expect.any(String), segments: null, task: "transcribe" });
  expect(textBody.text.length).toBeGreaterThan(0);

  const json = await (await transcribe(baseURL, { audio_path: "nested/hello.wav", response_format: "json" })).json();
  expect(json).toMatchObject({ audio_path: "nested/hello.wav", task: "transcribe", text: textBody.text });
  expect(json.segments.length).toBeGreaterThan(0);

  const verbose = await (await transcribe(baseURL, { audio_path: "nested/hello.wav", response_format: "verbose_json" })).json();
  expect(verbose).toMatchObject({ audio_path: "nested/hello.wav", task: "transcribe", text: textBody.text, language: "en" });
  expect(verbose.duration).toBeGreaterThan(1);
  expect(json.segments.map(Object.keys)).toEqual(json.segments.map(() => ["start", "end", "text"]));
  expect(verbose.segments.map(({ start, end, text }: { start: number; end: number; text: string }) => ({ start, end, text }))).toEqual(json.segments);
  for (const segment of verbose.segments) {
    expectEngineNumbers(segment, "a verbose_json segment of /transcribe");
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(verbose.duration);
  }
}

/** Each path gets a 400 whose message names `folder`, the input folder as callers see it. */
export async function expectTraversalRefused(baseURL: string, paths: string[], folder: string): Promise<void> {
  for (const audio_path of paths) {
    const response = await transcribe(baseURL, { audio_path, response_format: "json" });
    expect({ audio_path, status: response.status }).toEqual({ audio_path, status: 400 });
    const body = await response.json();
    assertShape(OpenAiErrorResponse, body, `the refusal of ${audio_path}`);
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: "audio_path" });
    expect(body.error.message).toContain(`inside the input folder ${folder}`);
  }
}

export async function expectNonAudioRefused(baseURL: string): Promise<void> {
  const response = await transcribe(baseURL, { audio_path: "notes.txt" });
  expect(response.status).toBe(415);
  const { error } = await response.json();
  expect(error.code).toBe("unsupported_audio_format");
  expect(error.message).toContain("notes.txt");
}

/** Every response_format through the `openai` client, each in OpenAI's shape; subtitles carry the verbose segments. */
export async function expectOpenAiUpload(baseURL: string, wavPath: string): Promise<void> {
  const openai = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: API_KEY, maxRetries: 0 });
  const file = () => toFile(readFileSync(wavPath), "hello.wav", { type: "audio/wav" });
  const json = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1" });
  assertShape(TranscriptionJson, json, "json transcription");
  expect(json.text.length).toBeGreaterThan(0);
  const verbose = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "verbose_json" });
  assertShape(TranscriptionVerboseJson, verbose, "verbose_json transcription");
  expect(verbose.text).toBe(json.text);
  expect(verbose.segments!.length).toBeGreaterThan(0);
  for (const segment of verbose.segments!) {
    expect(segment.temperature).toBe(0);
    expectEngineNumbers(segment as never, "a verbose_json segment of /v1/audio/transcriptions");
    expect(segment.seek).toBe(Math.round(segment.start * 100));
  }
  // The client sends the list as `timestamp_granularities[]` form fields.
  const segmentTimed = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "verbose_json", timestamp_granularities: ["segment"] });
  assertShape(TranscriptionVerboseJson, segmentTimed, "verbose_json transcription with segment timestamps");
  expect(segmentTimed.segments).toEqual(verbose.segments);
  const words = await openai.audio.transcriptions
    .create({ file: await file(), model: "whisper-1", response_format: "verbose_json", timestamp_granularities: ["segment", "word"] })
    .catch((caught) => caught);
  expect({ status: words.status, param: words.error?.param }).toEqual({ status: 400, param: "timestamp_granularities" });
  expect(words.error.message).toContain("word timestamps");
  const text = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "text" });
  expect(String(text).trim()).toBe(json.text);
  const spoken = verbose.segments!.filter((segment) => segment.text.trim() !== "");
  const srt = srtProblems(String(await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "srt" })));
  const vtt = vttProblems(String(await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "vtt" })));
  for (const subtitles of [srt, vtt]) {
    expect(subtitles.problems).toEqual([]);
    expect(subtitles.cues.map((cue) => cue.text)).toEqual(spoken.map((segment) => segment.text.trim()));
    subtitles.cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(spoken[i].start, 2);
      expect(cue.end).toBeCloseTo(spoken[i].end, 2);
    });
  }
  const badFormat = await openai.audio.transcriptions
    .create({ file: await file(), model: "whisper-1", response_format: "mp3" as never })
    .catch((caught) => caught);
  expect(badFormat.status).toBe(400);
  assertShape(OpenAiErrorResponse, { error: badFormat.error }, "the refusal of response_format mp3");

  const notAudio = await openai.audio.transcriptions
    .create({ file: await toFile(Buffer.from("plain text"), "notes.txt"), model: "whisper-1" })
    .catch((caught) => caught);
  expect(notAudio).toBeInstanceOf(OpenAI.APIError);
  expect(notAudio.status).toBe(415);
  assertShape(OpenAiErrorResponse, { error: notAudio.error }, "the refusal of a text file");
}

/** GET /v1/models lists the one whisper model, by its snapshot folder, in OpenAI's shape (and behind the key). */
export async function expectModelList(baseURL: string, modelPath: string): Promise<void> {
  const raw = await (await fetch(`${baseURL}/v1/models`, { headers: { authorization: `Bearer ${API_KEY}` } })).json();
  assertShape(ModelList, raw, "model list");
  const openai = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: API_KEY, maxRetries: 0 });
  expect((await openai.models.list()).data.map((model) => model.id)).toEqual([modelPath]);
  expect((await openai.models.retrieve(modelPath)).id).toBe(modelPath);
  const refused = await fetch(`${baseURL}/v1/models`);
  expect(refused.status).toBe(401);
  assertShape(OpenAiErrorResponse, await refused.json(), "401 of /v1/models");
}

export async function expectKeyRequired(baseURL: string): Promise<void> {
  expect((await transcribe(baseURL, { audio_path: "nested/hello.wav" }, "wrong")).status).toBe(401);
  const missing = await fetch(`${baseURL}/transcribe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(missing.status).toBe(401);
  expect((await fetch(`${baseURL}/health`)).status).toBe(200);
}

export const wavIn = (inputDir: string) => join(inputDir, "nested", "hello.wav");
