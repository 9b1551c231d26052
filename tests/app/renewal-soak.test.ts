/**
 * Outliving Slurm's wall time (--renew), end to end on the Slurm test cluster: a service with
 * --time 00:02:00 --renew --renew-before 00:01:30 (a successor every ~40 s) answers one chat request a second through the
 * gateway's /v1 (the model picks the service) for two minutes with no failure, hands over to a
 * successor job at least twice (its events say so), and ends with exactly one job in squeue. The second variant kills the whole of
 * svc (kill -9 of `svc start`) while a successor is starting and starts it again: the handover
 * resumes, no request fails after the restart, and there is still exactly one job at the end, the service's.
 * Both variants run side by side, each with its own app and cluster, so the suite grows by one soak.
 */
import { expect, test } from "bun:test";
import { chatThroughV1, eventually, eventsLike, runSvc, startAppWithCluster, TEXT_MODEL, type ChatResult, type ClusterApp } from "@svc/testing";

const SOAK_MS = 2 * 60_000 + 5_000;

interface SoakReport {
  variant: string;
  results: { at: number; result: ChatResult }[];
  /** Kill variant: when svc answered again after the kill. */
  restartedAt?: number;
  killedAt?: number;
  handovers: number;
  jobs: string[];
  currentJob: string;
}

const jobsInQueue = async (started: ClusterApp) =>
  (await started.cluster.execAsUser("squeue -h -u svc -t PD,R,CF,CG -o %i")).output.split("\n").map((line) => line.trim()).filter(Boolean);

async function soak(variant: "plain" | "svc killed mid-handover"): Promise<SoakReport> {
  const started = await startAppWithCluster("cluster");
  try {
    const { client, env } = started;
    const run = await runSvc(["run", "-p", "cluster", "--time", "00:02:00", "--renew", "--renew-before", "00:01:30", "text-generation", TEXT_MODEL, "--name", "soak"], env);
    if (run.code !== 0) throw new Error(`svc run failed: ${run.stderr}`);
    const id = run.stdout.trim();
    await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 400_000, `${variant}: the service to be HEALTHY`);
    expect((await runSvc(["details", id], env)).stdout).toMatch(/policies\s+renew renew-before=1 min 30 s/);

    const report: SoakReport = { variant, results: [], handovers: 0, jobs: [], currentJob: "" };
    const killer =
      variant === "plain"
        ? Promise.resolve()
        : (async () => {
            await eventually(async () => (await client.services.get(id)).successor?.phase === "starting", 200_000, "a successor job to be starting");
            report.killedAt = Date.now();
            await started.killAndRestart();
            await eventually(async () => Boolean(await client.services.get(id).catch(() => undefined)), 60_000, "svc to answer again");
            report.restartedAt = Date.now();
          })();
    const end = Date.now() + SOAK_MS;
    while (Date.now() < end) {
      const at = Date.now();
      report.results.push({ at, result: await chatThroughV1(started.app.url, TEXT_MODEL, { timeoutMs: 120_000 }) });
      await Bun.sleep(Math.max(0, 1000 - (Date.now() - at)));
    }
    await killer;

    // Between renewals (no successor), exactly one job of the service is queued or running: its current one.
    await eventually(
      async () => {
        const details = await client.services.get(id);
        if (details.successor) return false;
        report.jobs = await jobsInQueue(started);
        report.currentJob = details.handle!.split(":")[0];
        return report.jobs.length === 1;
      },
      120_000,
      `${variant}: one job in squeue`,
    );
    report.handovers = (await eventsLike(client, id, "handover:")).length;
    return report;
  } finally {
    await started.cleanup();
  }
}

test("--renew: two minutes of one request a second through /v1 across ≥2 handovers, 0 failures, one job at the end; the same with svc killed (kill -9) and started again mid-handover", async () => {
  const reports = await Promise.all([soak("plain"), soak("svc killed mid-handover")]);
  for (const report of reports) {
    const after = report.results.filter(({ at }) => report.restartedAt === undefined || at >= report.restartedAt);
    const failed = after.filter(({ result }) => !result.ok).map(({ at, result }) => `${new Date(at).toISOString()} ${result.status} ${result.text.slice(0, 200)}`);
    const before = report.results.length - after.length;
    const restart = report.restartedAt === undefined ? "" : `, ${before} before svc answered again after the kill`;
    console.log(`${report.variant}: ${report.results.length} requests (${report.results.filter(({ result }) => !result.ok).length} failed in all${restart}), ${report.handovers} handovers`);
    expect({ variant: report.variant, failed }).toEqual({ variant: report.variant, failed: [] });
    expect(report.results.length).toBeGreaterThanOrEqual(110);
    expect(report.handovers).toBeGreaterThanOrEqual(2);
    expect(report.jobs).toEqual([report.currentJob]);
  }
}, 1_500_000);
