/** Checks shared by the bare and the container tests of the speech-recognition runtime. */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import { API_KEY } from "./speech-fixtures";

export function transcribe(baseURL: string, body: unknown, apiKey = API_KEY): Promise<Response> {
  return fetch(`${baseURL}/transcribe`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
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
  for (const segment of verbose.segments) {
    expect(segment).toEqual({ id: expect.any(Number), start: expect.any(Number), end: expect.any(Number), text: expect.any(String) });
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(verbose.duration);
  }
}

export async function expectTraversalRefused(baseURL: string, paths: string[]): Promise<void> {
  for (const audio_path of paths) {
    const response = await transcribe(baseURL, { audio_path, response_format: "json" });
    expect({ audio_path, status: response.status }).toEqual({ audio_path, status: 400 });
    expect((await response.json()).error).toMatchObject({ type: "invalid_request_error", param: "audio_path" });
  }
}

export async function expectNonAudioRefused(baseURL: string): Promise<void> {
  const response = await transcribe(baseURL, { audio_path: "notes.txt" });
  expect(response.status).toBe(415);
  const { error } = await response.json();
  expect(error.code).toBe("unsupported_audio_format");
  expect(error.message).toContain("notes.txt");
}

export async function expectOpenAiUpload(baseURL: string, wavPath: string): Promise<void> {
  const openai = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: API_KEY, maxRetries: 0 });
  const file = () => toFile(readFileSync(wavPath), "hello.wav", { type: "audio/wav" });
  const json = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1" });
  expect(json.text.length).toBeGreaterThan(0);
  const verbose = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "verbose_json" });
  expect(verbose.text).toBe(json.text);
  expect(verbose.segments!.length).toBeGreaterThan(0);
  const text = await openai.audio.transcriptions.create({ file: await file(), model: "whisper-1", response_format: "text" });
  expect(String(text).trim()).toBe(json.text);

  const notAudio = await openai.audio.transcriptions
    .create({ file: await toFile(Buffer.from("plain text"), "notes.txt"), model: "whisper-1" })
    .catch((caught) => caught);
  expect(notAudio).toBeInstanceOf(OpenAI.APIError);
  expect(notAudio.status).toBe(415);
}

export async function expectKeyRequired(baseURL: string): Promise<void> {
  expect((await transcribe(baseURL, { audio_path: "nested/hello.wav" }, "wrong")).status).toBe(401);
  const missing = await fetch(`${baseURL}/transcribe`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(missing.status).toBe(401);
  expect((await fetch(`${baseURL}/health`)).status).toBe(200);
}

export const wavIn = (inputDir: string) => join(inputDir, "nested", "hello.wav");
