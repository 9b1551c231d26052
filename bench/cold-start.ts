/**
 * `bun bench/cold-start.ts [--no-slurm] [--no-docker]`: what --on-demand costs the first request.
 * For a tiny text-generation service run with --idle-stop 5s --on-demand, on Docker and on the
 * Slurm test cluster (images/slurm-test, over SSH on loopback), each round waits for the idle stop,
 * then times the first chat request through /proxy/<id> (which starts the service and waits for
 * it) and a warm one right after. Prints, per engine, the medians of: the service's own start time
 * (SUBMITTED → HEALTHY from its events), the first request, a warm request, and the time the cold
 * start added to the first request (first − warm), with its ratio to the service's own start.
 * Every loop is bounded; traffic stays on this machine.
 */
import type { SvcClient } from "@svc/client";
import { chatThroughProxy, eventually, runSvc, startAppWithCluster, startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Round {
  ownStartMs: number;
  firstMs: number;
  warmMs: number;
}

/** Start time of the service's latest run, from its events: the last SUBMITTED to the HEALTHY after it. */
async function ownStart(client: SvcClient, id: string): Promise<number> {
  const events = (await client.services.get(id)).events;
  const submitted = events.findLastIndex((e) => e.to === "SUBMITTED");
  const healthy = events.slice(submitted).find((e) => e.to === "HEALTHY");
  return Date.parse(healthy!.at) - Date.parse(events[submitted].at);
}

async function measure(label: string, appUrl: string, client: SvcClient, env: Record<string, string>, profileArgs: string[]) {
  const run = await runSvc(["run", ...profileArgs, "--idle-stop", "5s", "--on-demand", "text-generation", TEXT_MODEL, "--name", "cold"], env);
  if (run.code !== 0) throw new Error(`svc run failed: ${run.stderr}`);
  const id = run.stdout.trim();
  await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 600_000, "the first start");
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await eventually(async () => (await client.services.get(id)).status === "STOPPED", 120_000, "the idle stop");
    let t = performance.now();
    const first = await chatThroughProxy(appUrl, id, TEXT_MODEL);
    const firstMs = performance.now() - t;
    t = performance.now();
    const warm = await chatThroughProxy(appUrl, id, TEXT_MODEL);
    const warmMs = performance.now() - t;
    if (!first.ok || !warm.ok) throw new Error(`a request failed: ${first.status} ${first.text.slice(0, 200)} / ${warm.status} ${warm.text.slice(0, 200)}`);
    rounds.push({ ownStartMs: await ownStart(client, id), firstMs, warmMs });
  }
  await client.services.remove(id, { force: true });
  const own = median(rounds.map((r) => r.ownStartMs));
  const first = median(rounds.map((r) => r.firstMs));
  const warm = median(rounds.map((r) => r.warmMs));
  const added = first - warm;
  console.log(
    `${label.padEnd(7)} service start ${seconds(own)} | first request ${seconds(first)} | warm request ${seconds(warm)} | added by the cold start ${seconds(added)} (${(added / own).toFixed(2)}× the service's own start)`,
  );
}

if (!process.argv.includes("--no-docker")) {
  const tiny = await startAppWithTinyModels();
  try {
    await measure("docker", tiny.app.url, tiny.client, tiny.env, []);
  } finally {
    await tiny.cleanup();
  }
}
if (!process.argv.includes("--no-slurm")) {
  const cluster = await startAppWithCluster("cluster");
  try {
    await measure("slurm", cluster.app.url, cluster.client, cluster.env, ["-p", "cluster"]);
  } finally {
    await cluster.cleanup();
  }
}
process.exit(0);
