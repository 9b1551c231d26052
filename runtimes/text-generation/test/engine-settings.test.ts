/** The engine options turn into node-llama-cpp's settings (each option given, and the defaults). */
import { expect, test } from "bun:test";
import { CPU_TEXT_GENERATION_OPTIONS } from "@svc/contracts/engine-options";
import { parseRuntimeArgs } from "@svc/runtime-common";
import { engineSettings } from "../src/engine-settings";

const modelFile = new URL(import.meta.url).pathname; // any small file: the thread default looks at its size
const settingsFor = (...args: string[]) => engineSettings(parseRuntimeArgs(["--model", modelFile, ...args], CPU_TEXT_GENERATION_OPTIONS), modelFile);

test("without options: 4096 tokens (or --max-total-tokens), one sequence, one thread for a small model, automatic flash attention and mmap", () => {
  expect(settingsFor().settings).toEqual({
    modelFile,
    contextSize: 4096,
    threads: 1,
    batchSize: undefined,
    parallel: 1,
    seed: undefined,
    flashAttention: "auto",
    useMlock: false,
    useMmap: "auto",
  });
  expect(settingsFor("--max-total-tokens", "300").settings.contextSize).toBe(300);
});

test("every option lands in its setting", () => {
  const { settings, notices } = settingsFor("-c", "0", "--threads", "3", "-b", "128", "--parallel", "4", "--seed", "11", "--flash-attn", "on", "--mlock", "--no-mmap");
  expect(settings).toEqual({ modelFile, contextSize: 0, threads: 3, batchSize: 128, parallel: 4, seed: 11, flashAttention: true, useMlock: true, useMmap: false });
  expect(notices).toEqual([]);
  expect(settingsFor("--flash-attn", "off").settings.flashAttention).toBe(false);
});

test("options without effect here get a notice", () => {
  expect(settingsFor("-ngl", "all").notices).toEqual(["--n-gpu-layers all is ignored: this CPU runtime keeps every layer on the CPU."]);
  expect(settingsFor("--ctx-size", "256", "--max-total-tokens", "1000").notices[0]).toContain("requests are held to 256 tokens");
});
