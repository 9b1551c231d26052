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

test("greedy answers are the same whether a prompt's start was cached or not, and each says how much of its prompt was cached", async () => {
  const engine = await LlamaEngine.load({ modelFile, contextSize: 2048, threads: 1, parallel: 1, flashAttention: "auto", useMlock: false, useMmap: "auto" });
  const tokensOf = (prompt: string) => engine.tokenizeChat([{ role: "system", content: words(3, 150) }, { role: "user", content: prompt }]);
  const [first, second] = [tokensOf("first question"), tokensOf("second question")];
  const shared = first.findIndex((token, i) => token !== second[i]);
  expect(shared).toBeGreaterThan(150);
  const answer = async (prompt: string) => {
    const tokens = tokensOf(prompt);
    const pieces = engine.generate(tokens, { maxTokens: 12, temperature: 0, topP: 1, stop: [] });
    for (let step = await pieces.next(); ; step = await pieces.next()) if (step.done) return { text: step.value.text, cached: step.value.cachedTokens, prompt: tokens.length };
  };
  const fresh = await answer("first question");
  expect(fresh.cached).toBe(0);
  const other = await answer("second question");
  // What the two prompts share (the system prompt and the user turn's start) was in the cache.
  expect(other.cached).toBe(shared);
  // Cached system prompt, then the exact prompt again: all of it but the last token.
  expect(await answer("first question")).toMatchObject({ text: fresh.text, cached: other.cached });
  expect(await answer("first question")).toEqual({ text: fresh.text, cached: fresh.prompt - 1, prompt: fresh.prompt });
  expect((await answer("second question")).text).toBe(other.text);
});
