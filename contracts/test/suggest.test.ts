import { describe, expect, test } from "bun:test";
import { closest, closestRepos, didYouMean, toTask } from "../src";

describe("did you mean", () => {
  test("commands and options: a near miss, a prefix; nothing for what is far", () => {
    expect(closest("lss", ["ls", "logs", "rm", "run"])).toEqual(["ls"]);
    expect(closest("--refersh", ["--refresh", "--profile", "--json"])).toEqual(["--refresh"]);
    expect(closest("deta", ["details", "stop"])).toEqual(["details"]);
    expect(closest("frobnicate", ["ls", "logs", "run"])).toEqual([]);
  });

  test("models: a repo's name alone finds its id, a typo finds the id; an unrelated id finds nothing", () => {
    const repos = ["svc-tiny/tiny-llama-gguf", "svc-tiny/tiny-whisper-ggml", "openai/whisper-tiny"];
    expect(closestRepos("tiny-llama-gguf", repos)).toEqual(["svc-tiny/tiny-llama-gguf"]);
    expect(closestRepos("TINY-LLAMA-GGUF", repos)).toEqual(["svc-tiny/tiny-llama-gguf"]);
    expect(closestRepos("svc-tiny/tiny-lama-gguf", repos)).toEqual(["svc-tiny/tiny-llama-gguf"]);
    expect(closestRepos("whisper-tiny", repos)).toEqual(["openai/whisper-tiny"]);
    expect(closestRepos("acme/something-else", repos)).toEqual([]);
    expect(closestRepos("svc-tiny/tiny-llama-gguf", repos)).toEqual([]);
  });

  test("the sentence", () => {
    expect(didYouMean([])).toBe("");
    expect(didYouMean(["ls"], (s) => `'${s}'`)).toBe(" Did you mean 'ls'?");
    expect(didYouMean(["a", "b", "c", "d"])).toBe(" Did you mean a, b or c?");
  });

  test("tasks in either spelling", () => {
    expect(toTask("text_generation")).toBe("text-generation");
    expect(toTask("speech-recognition")).toBe("speech-recognition");
    expect(toTask("text generation")).toBeUndefined();
    expect(toTask(undefined)).toBeUndefined();
  });
});
