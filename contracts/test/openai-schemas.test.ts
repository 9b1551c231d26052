/** The OpenAI schemas accept answers shaped like OpenAI's own and name what is wrong in others. */
import { expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { ChatCompletion, ChatCompletionChunk, EmbeddingList, OpenAiErrorResponse, segmentNumberProblems, shapeMismatches, srtProblems, TranscriptionVerboseJson, vttProblems } from "../src/openai";

const chat = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, logprobs: null, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4, prompt_tokens_details: { cached_tokens: 0 } },
};

test("a chat completion as OpenAI sends it matches; extra fields are allowed", () => {
  expect(shapeMismatches(ChatCompletion, chat)).toEqual([]);
  expect(shapeMismatches(ChatCompletion, { ...chat, prompt_logprobs: null, choices: [{ ...chat.choices[0], stop_reason: null }] })).toEqual([]);
});

test("the known gaps are named by path: a missing refusal, null prompt_tokens_details", () => {
  const { refusal: _, ...message } = chat.choices[0].message;
  const mismatches = shapeMismatches(ChatCompletion, { ...chat, choices: [{ ...chat.choices[0], message }], usage: { ...chat.usage, prompt_tokens_details: null } });
  expect(mismatches.some((line) => line.startsWith("/choices/0/message/refusal: "))).toBe(true);
  expect(mismatches.some((line) => line.startsWith("/usage/prompt_tokens_details: "))).toBe(true);
});

test("stream chunks: finish_reason and usage may be null, a wrong object is named", () => {
  const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }], usage: null };
  expect(shapeMismatches(ChatCompletionChunk, chunk)).toEqual([]);
  expect(shapeMismatches(ChatCompletionChunk, { ...chunk, object: "chat.completion" })[0]).toStartWith("/object: ");
});

test("embeddings as floats or base64; errors with all four fields", () => {
  const list = { object: "list", model: "m", data: [{ object: "embedding", index: 0, embedding: [0.5, -1] }], usage: { prompt_tokens: 2, total_tokens: 2 } };
  expect(shapeMismatches(EmbeddingList, list)).toEqual([]);
  expect(shapeMismatches(EmbeddingList, { ...list, data: [{ ...list.data[0], embedding: "AACAPw==" }] })).toEqual([]);
  expect(shapeMismatches(OpenAiErrorResponse, { error: { message: "m", type: "t", param: null, code: null } })).toEqual([]);
  expect(shapeMismatches(OpenAiErrorResponse, { error: { message: "m", type: "t" } })).toHaveLength(2);
});

test("verbose_json segments need every field of TranscriptionSegment, avg_logprob and no_speech_prob as numbers", () => {
  const segment = { id: 0, seek: 0, start: 0, end: 1, text: "hi", tokens: [50364, 4178, 50414], temperature: 0, avg_logprob: -0.31, compression_ratio: 1, no_speech_prob: 0.02 };
  expect(shapeMismatches(TranscriptionVerboseJson, { language: "en", duration: 1, text: "hi", segments: [segment] })).toEqual([]);
  const { compression_ratio: _, ...lacking } = segment;
  expect(shapeMismatches(TranscriptionVerboseJson, { language: "en", duration: 1, text: "hi", segments: [lacking] })[0]).toStartWith("/segments/0/compression_ratio: ");
  const nulls = shapeMismatches(TranscriptionVerboseJson, { language: "en", duration: 1, text: "hi", segments: [{ ...segment, avg_logprob: null, no_speech_prob: null }] });
  expect(nulls.map((line) => line.split(":")[0]).sort()).toEqual(["/segments/0/avg_logprob", "/segments/0/no_speech_prob"]);
});

test("a segment's numbers are checked for what they mean: a log probability, a probability, the text's compression ratio", () => {
  const text = " hello hello hello hello";
  // zlib's format (header and checksum around the deflate stream), as Python's zlib.compress writes it.
  const ratio = Buffer.byteLength(text) / deflateSync(Buffer.from(text)).length;
  const segment = { id: 0, seek: 0, start: 0, end: 1, text, tokens: [1, 2], temperature: 0, avg_logprob: -0.2, compression_ratio: ratio, no_speech_prob: 0.1 };
  expect(segmentNumberProblems(segment)).toEqual([]);
  expect(segmentNumberProblems({ ...segment, compression_ratio: ratio, avg_logprob: 0.5, no_speech_prob: 1.5, tokens: [] })).toEqual([
    "avg_logprob 0.5 is no log probability (finite, <= 0)",
    "no_speech_prob 1.5 is no probability",
    "no tokens",
  ]);
  expect(segmentNumberProblems({ ...segment, compression_ratio: 1 })[0]).toStartWith("compression_ratio 1 is not the text's (");
});

test("SubRip and WebVTT cue lists are read, and malformed ones described", () => {
  expect(srtProblems("1\n00:00:00,000 --> 00:00:01,500\nhello\n\n2\n00:00:01,500 --> 00:00:02,000\nworld\n")).toEqual({
    problems: [],
    cues: [
      { start: 0, end: 1.5, text: "hello" },
      { start: 1.5, end: 2, text: "world" },
    ],
  });
  expect(srtProblems("2\n00:00:00.000 --> 00:00:01,500\nhello\n").problems).toEqual(['cue 1: expected the counter line "1", got "2"', "cue 1: missing or malformed timing line"]);
  expect(vttProblems("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nhello\n")).toEqual({ problems: [], cues: [{ start: 0, end: 1.5, text: "hello" }] });
  expect(vttProblems("00:00:00.000 --> 00:00:01.500\nhello\n").problems[0]).toContain("WEBVTT");
});
