/**
 * Figure 5: scale of the control loop. One reconcile tick over 1,000 HEALTHY services on one Slurm
 * profile (the tests' FakeEngine standing in for the cluster: its inspect is the tick's one SSH command
 * on Slurm), each probed for real over HTTP (a /health server in another process, so only the
 * reconciler's CPU is counted). Prints the CPU time of a tick (median of 10) and the inspects per tick.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Reconciler, ServiceStore } from "@svc/orchestrator-svc";
import { FakeEngine, freePort } from "@svc/testing";
import { median, until, type Row } from "../lib/measure";

const SERVICES = 1000;

export async function controlLoop(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-loop-"));
  const port = await freePort();
  const health = Bun.spawn([process.execPath, "-e", `Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: () => new Response("ok") })`], { stdout: "ignore", stderr: "ignore" });
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 10_000, 20);
    const store = new ServiceStore(join(dir, "orchestrator.db"));
    const engine = new FakeEngine("slurm");
    const at = new Date().toISOString();
    for (let i = 0; i < SERVICES; i++) {
      const handle = String(100_000 + i);
      store.insert(
        {
          id: crypto.randomUUID(), name: `s${i}`, task: "text-generation", model: "svc-tiny/tiny-llama-gguf", revision: "r", profile: "cluster", status: "HEALTHY", reason: null,
          host: "127.0.0.1", port, engine: "slurm", runtime: "bare", handle, apiKey: null, spec: "{}", createdBy: "bench", createdAt: at, updatedAt: at, lastRequestAt: at,
        },
        null,
      );
      engine.script(handle, { phase: "running", host: "127.0.0.1", port });
    }
    const reconciler = new Reconciler({ store, engineFor: () => engine });
    await reconciler.tick(); // warm-up
    const cpu: number[] = [];
    const wall: number[] = [];
    const inspects: number[] = [];
    for (let i = 0; i < 10; i++) {
      const calls = engine.inspectCalls;
      const [usage, started] = [process.cpuUsage(), performance.now()];
      await reconciler.tick();
      const used = process.cpuUsage(usage);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
      inspects.push(engine.inspectCalls - calls);
    }
    const [c, trips] = [median(cpu), Math.max(...inspects)];
    return [
      {
        figure: `control loop: a tick over ${SERVICES.toLocaleString("en")} live Slurm services`,
        svc: `${c.toFixed(1)} ms CPU (${median(wall).toFixed(0)} ms wall), ${trips} inspect (SSH round trip) per tick`,
        comparison: "100 ms CPU, 1 round trip",
        ratio: c / 100,
        goal: "≤ 1.00",
        met: c <= 100 && trips === 1,
      },
    ];
  } finally {
    health.kill();
    await health.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
