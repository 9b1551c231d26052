/**
 * OpenAI's Batch API through a Slurm profile with the official `openai` client: a 100-line chat
 * batch runs as an svc batch job on the test cluster (its input copied there over the profile's
 * SSH connection) to `completed`, with an answer per custom_id; a batch cancelled while it runs
 * stops its Slurm job (none left in squeue) and keeps what was done.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { assertShape, ChatCompletion } from "@svc/contracts/openai";
import { batchBecomes, chatBatchFile, eventually, resultLines, RUNTIME_UPLOAD_TEST_MS, startAppWithCluster, TEXT_MODEL, uploadBatchFile, type ClusterApp } from "@svc/testing";

const PROFILE = "cluster";
const REQUESTS = 100;
/** Far more work than the time it takes to see it started and cancel it. */
const SLOW_REQUESTS = 3000;

let started: ClusterApp;
let openai: OpenAI;

const squeue = async () => {
  const result = await started.cluster.execAsUser("squeue -h -u svc -o '%i %k'");
  if (result.exitCode !== 0) throw new Error(`squeue failed: ${result.output}`);
  return result.output.trim();
};

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE);
  // Debug mode: no key needed; the batches are the anonymous caller's.
  openai = new OpenAI({ baseURL: `${started.app.url}/v1`, apiKey: "unused", maxRetries: 0 });
}, 600_000);

afterAll(async () => {
  for (const batch of (await started?.client.batches.list({ all: true }).catch(() => [])) ?? []) await started.client.batches.remove(batch.id, { force: true }).catch(() => {});
  await started?.cleanup();
});

describe("the Batch API on a Slurm profile", () => {
  test(
    "a 100-line chat batch: completed, 100 answers keyed by custom_id",
    async () => {
      const input = await uploadBatchFile(openai, chatBatchFile(TEXT_MODEL, REQUESTS));
      const batch = await openai.batches.create({ input_file_id: input.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { svc_profile: PROFILE } });
      const done = await batchBecomes(openai, batch.id, ["completed"], RUNTIME_UPLOAD_TEST_MS);
      expect(done.request_counts).toEqual({ total: REQUESTS, completed: REQUESTS, failed: 0 });
      expect(done.error_file_id).toBeUndefined();
      const output = await resultLines(openai, done.output_file_id!);
      expect([...output.keys()].sort()).toEqual(Array.from({ length: REQUESTS }, (_, i) => `req-${i}`).sort());
      for (const line of output.values()) assertShape(ChatCompletion, line.response!.body, `the answer to ${line.custom_id}`);
      const jobs = await started.client.batches.list({ all: true });
      expect(jobs.map((job) => [job.engine, job.profile, job.status])).toEqual([["slurm", PROFILE, "COMPLETED"]]);
    },
    RUNTIME_UPLOAD_TEST_MS + 60_000,
  );

  test(
    "cancelling a running batch stops its Slurm job and keeps what was done",
    async () => {
      const input = await uploadBatchFile(openai, chatBatchFile(TEXT_MODEL, SLOW_REQUESTS, [], 64));
      const batch = await openai.batches.create({ input_file_id: input.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { svc_profile: PROFILE } });
      await eventually(async () => {
        const seen = await openai.batches.retrieve(batch.id);
        return seen.status === "in_progress" && (seen.request_counts?.completed ?? 0) >= 5;
      }, 300_000, "the batch to be under way");
      const cancelling = await openai.batches.cancel(batch.id);
      expect(["cancelling", "cancelled"]).toContain(cancelling.status);
      const cancelled = await batchBecomes(openai, batch.id, ["cancelled"], 120_000);
      expect(cancelled.cancelled_at).toBeGreaterThanOrEqual(cancelled.cancelling_at!);
      expect(cancelled.request_counts!.completed).toBeGreaterThanOrEqual(5);
      expect(cancelled.request_counts!.completed).toBeLessThan(SLOW_REQUESTS);
      expect((await resultLines(openai, cancelled.output_file_id!)).size).toBe(cancelled.request_counts!.completed);
      await eventually(async () => (await squeue()) === "", 60_000, "no job left in squeue");
    },
    420_000,
  );
});
