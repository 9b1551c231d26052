/**
 * The tiny GGUF LoRA adapter is one llama.cpp loads onto the tiny llama, and strong enough to be
 * seen: the adapted model's greedy completion differs from the base's, and the base's stays the same.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaCompletion, type LlamaModel } from "node-llama-cpp";
import { makeTinyModels, TINY_LORA_GGUF_FILE } from "@svc/runtime-tiny-models";

let cacheDir: string;
let adapterFile: string;
let model: LlamaModel;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-lora-"));
  const tiny = makeTinyModels(cacheDir);
  adapterFile = join(tiny.loraGguf, TINY_LORA_GGUF_FILE);
  model = await (await getLlama({ gpu: false, build: "never" })).loadModel({ modelPath: join(tiny.textGeneration, "tiny-llama-f32.gguf") });
});

afterAll(async () => {
  await model?.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function greedy(lora?: string): Promise<string> {
  const context = await model.createContext({ contextSize: 256, threads: 1, ...(lora ? { lora: { adapters: [{ filePath: lora }] } } : {}) });
  try {
    return await new LlamaCompletion({ contextSequence: context.getSequence() }).generateCompletion("Hello world, tell me", { maxTokens: 16, temperature: 0 });
  } finally {
    await context.dispose();
  }
}

test("with the adapter the tiny llama's greedy completion differs; without it, it is the base's again", async () => {
  const base = await greedy();
  const adapted = await greedy(adapterFile);
  expect(adapted).not.toBe(base);
  expect(await greedy()).toBe(base);
});
