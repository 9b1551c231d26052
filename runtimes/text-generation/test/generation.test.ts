/** A generation left early still ends the engine's generator (which hands its sequence back) and frees its turn. */
import { expect, test } from "bun:test";
import { MetricsRegistry, RequestQueue } from "@svc/runtime-common";
import { generate, generationMetrics } from "../src/generation";
import type { GenerationResult, LlamaEngine } from "../src/llama-engine";

test("when the consumer of the pieces throws, the engine's generation is closed and the queue released", async () => {
  let closed = false;
  const engine = {
    async *generate(): AsyncGenerator<string, GenerationResult> {
      try {
        yield "a";
        yield "b";
        return { text: "ab", completionTokens: 2, cachedTokens: 0, finishReason: "stop", stopReason: null };
      } finally {
        closed = true;
      }
    },
  } as unknown as LlamaEngine;
  const queue = new RequestQueue(1);
  const deps = { engine: () => engine, queue, metrics: generationMetrics(new MetricsRegistry()) };
  const options = { maxTokens: 5, temperature: 0, topP: 1, stop: [] };
  const failing = generate(deps, [], options, () => {
    throw new Error("client went away");
  });
  await expect(failing).rejects.toThrow("client went away");
  expect(closed).toBe(true);
  expect((await generate(deps, [], options)).text).toBe("ab");
});
