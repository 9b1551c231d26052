/** `svc batch run`'s arguments: tasks, the OpenAI form without a task word, job options as for svc run, clear usage errors. */
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { parseBatchRunArgs } from "../src/commands/batch/parse-batch-args";

test("a folder task with job options before it and batch options after, relative folders made absolute", () => {
  const parsed = parseBatchRunArgs(["--time", "02:00:00", "-p", "cluster", "transcribe", "openai/whisper-tiny", "--input-dir", "audio", "--output-dir", "~/out", "--params", '{"language":"en","format":"srt"}', "--input-ext", ".wav, mp3", "--concurrency", "8", "--idle-timeout", "2m", "--dry-run", "--json"]);
  expect(parsed).toEqual({
    help: false,
    json: true,
    request: {
      task: "transcribe",
      model: "openai/whisper-tiny",
      job: { time: "02:00:00" },
      profile: "cluster",
      inputDir: resolve("audio"),
      outputDir: "~/out",
      params: { language: "en", format: "srt" },
      inputExt: [".wav", "mp3"],
      concurrency: 8,
      idleTimeout: 120,
      dryRun: true,
    },
  });
});

test("an OpenAI batch file needs no task word", () => {
  expect(parseBatchRunArgs(["svc-tiny/tiny-llama-gguf", "--input", "/d/requests.jsonl", "--output", "/d/results.jsonl"])).toMatchObject({
    request: { task: "openai", model: "svc-tiny/tiny-llama-gguf", input: "/d/requests.jsonl", output: "/d/results.jsonl" },
  });
});

test("usage errors say what to fix", () => {
  expect(() => parseBatchRunArgs(["chat"])).toThrow("give the task and the model");
  expect(() => parseBatchRunArgs(["sing", "m", "--input-dir", "/a"])).toThrow("unknown batch task 'sing': choose transcribe, chat, embed, openai.");
  expect(() => parseBatchRunArgs(["chat", "m", "--params", "{oops"])).toThrow("--params \"{oops\": give a JSON object");
  expect(() => parseBatchRunArgs(["chat", "m", "--params", "[1]"])).toThrow("--params: give a JSON object");
  expect(() => parseBatchRunArgs(["chat", "m", "--idle-timeout", "soon"])).toThrow("--idle-timeout \"soon\": give seconds");
  expect(() => parseBatchRunArgs(["chat", "m", "--concurrency", "0"])).toThrow("--concurrency \"0\": use a whole number of at least 1.");
  expect(() => parseBatchRunArgs(["chat", "m", "--mem", "lots"])).toThrow("--mem \"lots\"");
  expect(() => parseBatchRunArgs(["chat", "m", "--frobnicate"])).toThrow("unknown option --frobnicate for svc batch run");
  expect(parseBatchRunArgs(["--help"])).toEqual({ help: true });
});
