/**
 * Figure 4, Docker: `svc run` → HEALTHY against `docker run` of the same container (the line
 * `svc run --dry-run` prints, with its own name and port) → its first /health 200, both timed from
 * the command's start, alternating, medians of 7. HEALTHY is when svc recorded it (the service's
 * `phases.ready`, on this machine's clock); the API is polled every 20 ms only to learn that it
 * happened, so the poll (gateway, orchestrator-svc and this process, ~1 ms of CPU each time) does not
 * compete with the starting server on this 2-core machine. When the poll first saw it is printed too.
 * The bare side polls /health every 5 ms (a refused connection costs next to nothing).
 */
import { freePort, runSvc, startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";
import { ensureCliBundle } from "../lib/cli-bundle";
import { median, ms, until, type Row } from "../lib/measure";

const ROUNDS = 7;
const wall = () => performance.timeOrigin + performance.now();

export async function launchDocker(): Promise<Row[]> {
  ensureCliBundle();
  const tiny = await startAppWithTinyModels();
  try {
    const dry = await runSvc(["run", "--dry-run", "text-generation", TEXT_MODEL], tiny.env);
    if (dry.code !== 0) throw new Error(`svc run --dry-run failed: ${dry.stderr}`);
    const script = dry.stdout.trim();
    if (!/--name \S+/.test(script) || !/--port'? '?\d+/.test(script)) throw new Error(`unexpected dry-run script: ${script.slice(0, 300)}`);
    const recorded: number[] = [];
    const seen: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let started = wall();
      const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", `bench-launch-${round}`], tiny.env);
      if (run.code !== 0) throw new Error(`svc run failed: ${run.stderr}`);
      const id = run.stdout.trim();
      let ready: string | null = null;
      const sawAt = await until(async () => (ready = (await tiny.client.services.get(id)).phases.ready) !== null, 120_000, 20);
      recorded.push(Date.parse(ready!) - started);
      seen.push(performance.timeOrigin + sawAt - started);
      await tiny.client.services.remove(id, { force: true });

      const port = await freePort();
      const name = `svc-bench-bare-${process.pid}-${round}`;
      const line = script.replace(/--name \S+/, `--name ${name}`).replace(/--port('?) ('?)\d+/, `--port$1 $2${port}`);
      started = performance.now();
      const docker = Bun.spawn(["sh", "-c", line], { stdout: "ignore", stderr: "pipe" });
      try {
        bare.push((await until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 120_000, 5)) - started);
      } finally {
        await docker.exited;
        Bun.spawnSync(["docker", "rm", "-f", name], { stdout: "ignore", stderr: "ignore" });
      }
    }
    const [s, d] = [median(recorded), median(bare)];
    return [
      {
        figure: "launch overhead: Docker, svc run → HEALTHY",
        svc: `${ms(s)} (a 20 ms API poll saw it at ${ms(median(seen))})`,
        comparison: `docker run → /health 200 ${ms(d)}`,
        ratio: s / d,
        goal: "Δ ≤ 100 ms",
        met: s - d <= 100,
      },
    ];
  } finally {
    await tiny.cleanup();
  }
}
