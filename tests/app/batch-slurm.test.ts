/**
 * Batch jobs on the real Slurm test cluster (images/slurm-test over SSH): transcription with a
 * stop and resume that redoes no finished file, a corrupt WAV recorded as a failure, files added
 * mid-run processed; and a chat job over 40 text files. A job whose --time is too short for its
 * inputs is in batch-slurm-time-limit.test.ts (a file of its own, so that the two run side by side).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SvcClient } from "@svc/client";
import type { BatchRecord, BatchStatus } from "@svc/contracts";
import { batchReaches, CLUSTER_HOME, clusterFiles, runSvc, sh, startAppWithCluster, tempHome, TEXT_MODEL, SPEECH_MODEL, type ClusterApp, type SshTestHost, RUNTIME_UPLOAD_TEST_MS, watchBatchProgress } from "@svc/testing";

const PROFILE = "cluster";
const HOME = CLUSTER_HOME;
const WAVS = 40;
const TEXTS = 40;

let started: ClusterApp;
let cluster: SshTestHost;
let client: SvcClient;
let env: Record<string, string>;
let onCluster: ReturnType<typeof clusterFiles>["onCluster"];
let outputs: ReturnType<typeof clusterFiles>["outputs"];
const reaches = (id: string, wanted: BatchStatus, ms = 300_000) => batchReaches(client, id, wanted, ms);

const watchProgress = (id: string, until: (record: BatchRecord) => boolean, seen: Set<number>, ms = 300_000) => watchBatchProgress(env, id, until, seen, ms);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE);
  ({ cluster, client, env } = started);
  ({ onCluster, outputs } = clusterFiles(cluster));
  // The inputs, made here and copied onto the cluster (the test cluster has no espeak-ng).
  const staged = tempHome("svc-batch-inputs-");
  mkdirSync(join(staged, "audio", "more"), { recursive: true });
  mkdirSync(join(staged, "late"), { recursive: true });
  mkdirSync(join(staged, "texts"), { recursive: true });
  for (let i = 0; i < TEXTS; i++) writeFileSync(join(staged, "texts", `doc-${String(i).padStart(2, "0")}.txt`), `Document ${i}: the quick brown fox jumps over the lazy dog ${i} times.`);
  for (let i = 0; i < WAVS; i++) sh(["espeak-ng", "-w", join(staged, "audio", i % 4 === 3 ? "more" : "", `clip-${String(i).padStart(2, "0")}.wav`), `hello number ${i} from the cluster`]);
  writeFileSync(join(staged, "audio", "corrupt.wav"), "RIFF not really a wave file");
  for (let i = 0; i < 2; i++) sh(["espeak-ng", "-w", join(staged, "late", `late-${i}.wav`), `added while running ${i}`]);
  await cluster.container.copyDirectoriesToContainer([{ source: staged, target: `${HOME}/batch` }]);
  const owned = await cluster.container.exec(["chown", "-R", "svc:svc", "/home/svc"]);
  if (owned.exitCode !== 0) throw new Error(owned.output);
}, 600_000);

afterAll(async () => {
  for (const batch of (await client?.batches.list({ all: true }).catch(() => [])) ?? []) await client.batches.remove(batch.id, { force: true }).catch(() => {});
  await started?.cleanup();
});

describe("batch jobs on Slurm", () => {
  test(
    "transcribe: progress in ls, stop then resume redoes no finished file, the corrupt WAV is a failure, files added mid-run are processed",
    async () => {
      const out = `${HOME}/batch/transcripts`;
      const run = await runSvc(
        ["batch", "run", "-p", PROFILE, "transcribe", SPEECH_MODEL, "--input-dir", "~/svc/batch/audio", "--output-dir", "~/svc/batch/transcripts", "--concurrency", "1", "--idle-timeout", "20", "--name", "cluster-interviews"],
        env,
      );
      expect(run.code).toBe(0);
      const id = run.stdout.trim();
      const seen = new Set<number>();
      await watchProgress(id, (record) => record.status === "RUNNING" && (record.progress?.done ?? 0) >= 3, seen, RUNTIME_UPLOAD_TEST_MS);
      expect((await runSvc(["batch", "stop", id.slice(0, 8)], env)).code).toBe(0);
      await reaches(id, "STOPPED");
      const before = await outputs(out);
      const finished = [...before.keys()].filter((path) => path.endsWith(".json"));
      expect(finished.length).toBeGreaterThanOrEqual(3);
      expect(finished.length).toBeLessThan(WAVS);
      for (const path of finished) expect(before.has(path.replace(/\.json$/, ".txt"))).toBe(true);

      expect((await runSvc(["batch", "resume", "cluster-interviews"], env)).code).toBe(0);
      await watchProgress(id, (record) => record.status === "RUNNING" && record.progress !== null && record.progress.done + record.progress.failed === WAVS + 1, seen);
      await onCluster(`cp ${HOME}/batch/late/*.wav ${HOME}/batch/audio/`);
      await reaches(id, "COMPLETED");
      expect(seen.size).toBeGreaterThan(1);

      const after = await outputs(out);
      for (const path of finished) expect(after.get(path)).toBe(before.get(path)!);
      const stems = [...Array(WAVS).keys()].map((i) => `${i % 4 === 3 ? "more/" : ""}clip-${String(i).padStart(2, "0")}`).concat(["late-0", "late-1"]);
      expect(stems.flatMap((stem) => [".txt", ".json"].map((ext) => `${stem}${ext}`)).filter((path) => !after.has(path))).toEqual([]);
      expect(after.size).toBe(stems.length * 2);
      // The driver's temporary files stay in its state folder and are gone once it ended.
      expect((await onCluster(`find ${out} -name '*.tmp' | wc -l`)).trim()).toBe("0");

      const details = await client.batches.get(id);
      expect(details.engine).toBe("slurm");
      expect(details.allocations).toBe(2);
      expect(details.progress).toMatchObject({ phase: "finished", total: WAVS + 3, done: WAVS + 2, failed: 1 });
      expect(details.failures).toEqual([{ path: "corrupt.wav", status: "failed", reason: expect.stringContaining("HTTP 415") }]);
      expect(details.files).toHaveLength(WAVS + 3);
    },
    RUNTIME_UPLOAD_TEST_MS + 600_000,
  );

  test(
    "chat: every one of 40 text files gets its answer, written whole",
    async () => {
      const params = JSON.stringify({ prompt: "Summarise in a few words:\n{text}", max_tokens: 8, temperature: 0 });
      const run = await runSvc(
        ["batch", "run", "-p", PROFILE, "chat", TEXT_MODEL, "--input-dir", "~/svc/batch/texts", "--output-dir", "~/svc/batch/answers", "--params", params, "--idle-timeout", "5"],
        env,
      );
      expect(run.code).toBe(0);
      const id = run.stdout.trim();
      await reaches(id, "COMPLETED", RUNTIME_UPLOAD_TEST_MS);
      const answers = await outputs(`${HOME}/batch/answers`);
      expect([...answers.keys()].sort()).toEqual([...Array(TEXTS).keys()].map((i) => `doc-${String(i).padStart(2, "0")}.txt`));
      const sizes = (await onCluster(`find ${HOME}/batch/answers -name '*.txt' -size 0 | wc -l`)).trim();
      expect(sizes).toBe("0");
      expect((await client.batches.get(id)).progress).toMatchObject({ phase: "finished", total: TEXTS, done: TEXTS, failed: 0 });
    },
    RUNTIME_UPLOAD_TEST_MS,
  );
});
