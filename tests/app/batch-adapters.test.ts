/**
 * Batch jobs of a LoRA adapter, end to end on Docker (issue 42): `svc batch run chat ADAPTER` runs
 * the tiny base with the tiny GGUF adapter and answers differently from the same job on the base
 * (greedy, same seed); `svc batch details` names the adapter and its base. A /v1/batches file whose
 * lines name the adapter is answered by the adapter, its usage recorded under the adapter's name.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { batchBecomes, batchReaches, chatBatchFile, LORA_GGUF, resultLines, runSvc, startAppWithTinyModels, TEXT_MODEL, uploadBatchFile, type TinyApp } from "@svc/testing";

const JOB_MS = 240_000;
const TEXTS = ["Hello world, tell me", "The quick brown fox", "Once upon a time"];
let tiny: TinyApp;
let work: string;

beforeAll(async () => {
  tiny = await startAppWithTinyModels();
  work = join(tiny.modelsHome, "batch-adapters");
  mkdirSync(join(work, "texts"), { recursive: true });
  TEXTS.forEach((text, i) => writeFileSync(join(work, "texts", `doc-${i}.txt`), text));
}, 600_000);

afterAll(async () => {
  for (const batch of (await tiny?.client.batches.list({ all: true }).catch(() => [])) ?? []) await tiny.client.batches.remove(batch.id, { force: true }).catch(() => {});
  await tiny?.cleanup();
});

const svc = (...args: string[]) => runSvc(args, tiny.env);

/** Runs `svc batch run chat MODEL` over the texts to completion; each answer by file name. */
async function chatJob(model: string, out: string): Promise<{ id: string; answers: string[] }> {
  const params = JSON.stringify({ max_tokens: 12, temperature: 0, seed: 7 });
  const run = await svc("batch", "run", "chat", model, "--input-dir", join(work, "texts"), "--output-dir", join(work, out), "--params", params, "--idle-timeout", "0");
  expect(run.code, run.stderr).toBe(0);
  const id = run.stdout.trim();
  await batchReaches(tiny.client, id, "COMPLETED", JOB_MS);
  return { id, answers: TEXTS.map((_, i) => readFileSync(join(work, out, `doc-${i}.txt`), "utf8")) };
}

describe("batch jobs of a LoRA adapter", () => {
  test(
    "svc batch run chat ADAPTER: the base with the adapter, answers unlike the base's; details name both",
    async () => {
      const adapted = await chatJob(LORA_GGUF, "lora");
      const base = await chatJob(TEXT_MODEL, "base");
      expect(adapted.answers.every((answer) => answer.length > 0)).toBe(true);
      expect(adapted.answers).not.toEqual(base.answers);
      expect(await tiny.client.batches.get(adapted.id)).toMatchObject({ model: TEXT_MODEL, adapter: LORA_GGUF, progress: { done: TEXTS.length, failed: 0 } });
      expect((await tiny.client.batches.get(base.id)).adapter).toBeNull();
      const details = await svc("batch", "details", adapted.id);
      expect(details.stdout).toMatch(new RegExp(`^adapter +${LORA_GGUF} \\(LoRA, every request names it\\)$`, "m"));
      expect((await svc("batch", "ls")).stdout).toContain(`${LORA_GGUF} on ${TEXT_MODEL}`);
    },
    2 * JOB_MS + 60_000,
  );

  test(
    "/v1/batches: lines naming the adapter are answered by it, usage recorded under its name",
    async () => {
      const created = await svc("key", "create", "--name", "batcher");
      expect(created.code, created.stderr).toBe(0);
      const openai = new OpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey: created.stdout.split("\n")[0].trim(), maxRetries: 0 });
      const file = await uploadBatchFile(openai, chatBatchFile(LORA_GGUF, 2));
      const batch = await openai.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
      const done = await batchBecomes(openai, batch.id, ["completed"], JOB_MS);
      const lines = await resultLines(openai, done.output_file_id!);
      expect([...lines.values()].map((line) => [line.response?.status_code, line.response?.body.model])).toEqual([
        [200, LORA_GGUF],
        [200, LORA_GGUF],
      ]);
      const usage = JSON.parse((await svc("usage", "--by", "model", "--json")).stdout) as { groups: { group: string; requests: number }[] };
      expect(usage.groups.find((group) => group.group === LORA_GGUF)?.requests).toBe(2);
    },
    JOB_MS + 60_000,
  );
});
