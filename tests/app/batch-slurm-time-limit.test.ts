/**
 * A batch job on the real Slurm test cluster whose --time is too short for its inputs: resubmitted
 * by the reconciler until done, with the whole app killed (-9) and started again on the way. Its
 * inputs are added while the first allocation runs, until that allocation reached its time limit.
 * (The other batch jobs on Slurm are in batch-slurm.test.ts; this one has a file of its own so that
 * both run side by side.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SvcClient } from "@svc/client";
import type { BatchStatus } from "@svc/contracts";
import { batchReaches, CLUSTER_HOME, clusterFiles, eventually, runSvc, sh, startAppWithCluster, tempHome, SPEECH_MODEL, type ClusterApp, type SshTestHost } from "@svc/testing";

const PROFILE = "cluster";
const HOME = CLUSTER_HOME;
/**
 * Inputs are links to a recording that takes a second or more to transcribe, made while the first
 * allocation runs and kept this many ahead of the job, until that allocation has reached its time
 * limit: as much work as one minute holds on this machine, loaded or idle, and little more (a fixed
 * 150 took 2.5 minutes on an idle machine and over 20 on a loaded one). The job's idle timeout
 * outlasts the seconds by which the progress svc shows lags behind the job, and svc's restart on the
 * way, so the job does not end for want of inputs while they are still being added.
 */
const LONG_AHEAD = 8;
const IDLE_TIMEOUT_S = 15;
/**
 * The cluster's container may use half a core: the first allocation transcribes for its whole minute,
 * and this bounds what that minute costs the machine (about 50 CPU-seconds at full speed, beside the
 * other files) without changing what is tested.
 */
const CLUSTER_CPUS = 0.5;
let started: ClusterApp;
let cluster: SshTestHost;
let client: SvcClient;
let env: Record<string, string>;
let onCluster: ReturnType<typeof clusterFiles>["onCluster"];
let outputs: ReturnType<typeof clusterFiles>["outputs"];
const reaches = (id: string, wanted: BatchStatus, ms = 300_000) => batchReaches(client, id, wanted, ms);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE, { cpus: CLUSTER_CPUS });
  ({ cluster, client, env } = started);
  ({ onCluster, outputs } = clusterFiles(cluster));
  const staged = tempHome("svc-batch-inputs-");
  mkdirSync(join(staged, "long"));
  sh(["espeak-ng", "-w", join(staged, "long-source.wav"), [...Array(25).keys()].map((i) => `this is sentence number ${i} of a long recording.`).join(" ")]);
  await cluster.container.copyDirectoriesToContainer([{ source: staged, target: `${HOME}/batch` }]);
  const owned = await cluster.container.exec(["chown", "-R", "svc:svc", "/home/svc"]);
  if (owned.exitCode !== 0) throw new Error(owned.output);
}, 600_000);

afterAll(async () => {
  for (const batch of (await client?.batches.list({ all: true }).catch(() => [])) ?? []) await client.batches.remove(batch.id, { force: true }).catch(() => {});
  await started?.cleanup();
});

describe("a batch job on Slurm", () => {
  test(
    "a --time too short for its inputs: resubmitted until done (2+ allocations), also across kill -9 of the app and svc start",
    async () => {
      const out = `${HOME}/batch/long-transcripts`;
      let linked = 0;
      const link = async (count: number) => {
        await onCluster(`cd ${HOME}/batch/long && for i in $(seq ${linked} ${linked + count - 1}); do ln ../long-source.wav long-$(printf %04d $i).wav; done`);
        linked += count;
      };
      await link(LONG_AHEAD);
      const run = await runSvc(
        ["batch", "run", "-p", PROFILE, "--time", "1", "transcribe", SPEECH_MODEL, "--input-dir", "~/svc/batch/long", "--output-dir", "~/svc/batch/long-transcripts", "--concurrency", "1", "--idle-timeout", String(IDLE_TIMEOUT_S)],
        env,
      );
      expect(run.code).toBe(0);
      const id = run.stdout.trim();
      // Until the second allocation: more inputs whenever fewer than LONG_AHEAD are left (the app is down a while on the way: its misses are skipped).
      let feeding = true;
      const feeder = (async () => {
        while (feeding) {
          const record = await client.batches.get(id).catch(() => undefined);
          if (record && record.allocations >= 2) break;
          const ended = (record?.progress?.done ?? 0) + (record?.progress?.failed ?? 0);
          if (record && linked - ended < LONG_AHEAD) await link(LONG_AHEAD - (linked - ended));
          await Bun.sleep(1000);
        }
      })();
      await eventually(async () => ((await client.batches.get(id)).progress?.done ?? 0) >= 2, 300_000, "a few transcripts");

      // kill -9 of svc start (its components exit once it is gone), then svc start on the same home and port.
      await started.killAndRestart();
      const before = await outputs(out);
      expect(before.size).toBeLessThan(linked * 2);

      try {
        await eventually(async () => (await client.batches.get(id)).allocations >= 2, 600_000, "a second allocation");
      } finally {
        feeding = false;
        await feeder;
      }
      await reaches(id, "COMPLETED", 600_000);
      const details = await client.batches.get(id);
      console.log(`--time 1: ${linked} inputs over ${details.allocations} allocations`);
      expect(details.allocations).toBeGreaterThanOrEqual(2);
      expect(details.events.map((e) => e.reason ?? "").some((reason) => reason.includes("reached its time limit"))).toBe(true);
      expect(details.progress).toMatchObject({ phase: "finished", total: linked, done: linked, failed: 0 });
      const after = await outputs(out);
      expect(after.size).toBe(linked * 2);
      for (const [path, mtime] of before) expect(after.get(path)).toBe(mtime);
      const ls = await runSvc(["batch", "ls", "--all"], env);
      expect(ls.stdout).toMatch(new RegExp(`${id.slice(0, 13)}.*COMPLETED.*\\s${details.allocations}\\s`));
    },
    1_200_000,
  );
});
