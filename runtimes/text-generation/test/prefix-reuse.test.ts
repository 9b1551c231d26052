/**
 * The KV cache of a prompt's start is kept between requests (prefix-reuse.ts), on the real tiny
 * model: a request evaluates only what differs from a sequence's cache, picks the sequence whose
 * cache it shares, leaves another prompt's cache alone, and generates what it would from scratch.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, type LlamaContext, type LlamaModel, type Token } from "node-llama-cpp";
import { findModelFile } from "@svc/runtime-common";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { LlamaEngine } from "../src/llama-engine";
import { keepSharedPrefix, takeClosest } from "../src/prefix-reuse";

let cacheDir: string;
let modelFile: string;
let model: LlamaModel;
let context: LlamaContext;

const words = (salt: number, count: number) => Array.from({ length: count }, (_, i) => `w${(i * 7919 + salt * 104_729) % 997}`).join(" ");

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-prefix-reuse-"));
  modelFile = findModelFile(makeTinyModels(cacheDir).textGeneration, new TextEncoder().encode("GGUF"), "GGUF", ".gguf");
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn });
  model = await llama.loadModel({ modelPath: modelFile, gpuLayers: 0 });
  context = await model.createContext({ contextSize: 2048, sequences: 2, threads: 1 });
});

afterAll(async () => {
  await context?.dispose();
  await model?.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
});

test("a prompt that starts like a sequence's cache evaluates only the rest, on that sequence; another prompt takes the empty one", async () => {
  const [empty, holding] = [context.getSequence(), context.getSequence()];
  const shared = model.tokenize(`system: ${words(1, 200)}`);
  await holding.evaluateWithoutGeneratingNewTokens(shared);
  const next = [...shared, ...model.tokenize(" user: question one")] as Token[];
  const idle = [empty, holding];
  expect(takeClosest(idle, next)).toBe(holding);
  expect(idle).toEqual([empty]);
  const rest = await keepSharedPrefix(holding, next);
  expect(rest).toEqual(next.slice(shared.length));
  expect(holding.contextTokens).toEqual(shared);

  // A different prompt leaves the long cache alone for the empty sequence; with none empty, it takes the least recently used.
  const other = model.tokenize(`system: ${words(2, 200)}`);
  expect(takeClosest([holding, empty], other)).toBe(empty);
  await empty.evaluateWithoutGeneratingNewTokens(model.tokenize(`system: ${words(5, 100)}`));
  expect(takeClosest([empty, holding], other)).toBe(empty);
  expect(takeClosest([holding, empty], other)).toBe(holding);
  await empty.clearHistory();
  // The same prompt again: all but its last token kept (evaluating it gives the first new token).
  await holding.evaluateWithoutGeneratingNewTokens(rest);
  expect(await keepSharedPrefix(holding, next)).toEqual(next.slice(-1));
  // Only the first words in common: the rest is erased and evaluated again.
  expect(await keepSharedPrefix(holding, other)).toEqual(other.slice(holding.nextTokenIndex));
  expect(holding.nextTokenIndex).toBeLessThan(10);
  // Nothing in common: emptied, everything to evaluate.
  const unlike = model.tokenize(`notes: ${words(4, 20)}`);
  expect(await keepSharedPrefix(holding, unlike)).toEqual(unlike);
  expect(holding.nextTokenIndex).toBe(0);
});

test("greedy answers are the same whether a prompt's start was cached or not", async () => {
  const engine = await LlamaEngine.load({ modelFile, contextSize: 2048, threads: 1, parallel: 1, flashAttention: "auto", useMlock: false, useMmap: "auto" });
  const answer = async (prompt: string) => {
    const pieces = engine.generate(engine.tokenizeChat([{ role: "system", content: words(3, 150) }, { role: "user", content: prompt }]), { maxTokens: 12, temperature: 0, topP: 1, stop: [] });
    for (let step = await pieces.next(); ; step = await pieces.next()) if (step.done) return step.value.text;
  };
  const fresh = await answer("first question");
  const other = await answer("second question");
  // Cached system prompt, then the exact prompt again.
  expect(await answer("first question")).toBe(fresh);
  expect(await answer("second question")).toBe(other);
});
