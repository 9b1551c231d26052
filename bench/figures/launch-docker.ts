/**
 * Figure 4, Docker: `svc run` → HEALTHY (as the API shows it) against `docker run` of the same
 * container (the line `svc run --dry-run` prints, with its own name and port) → its first /health 200,
 * both timed from the command's start and polled every 5 ms, alternating, medians of 5.
 */
import { freePort, runSvc, startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";
import { median, ms, until, type Row } from "../lib/measure";

const ROUNDS = 5;

export async function launchDocker(): Promise<Row[]> {
  const tiny = await startAppWithTinyModels();
  try {
    const dry = await runSvc(["run", "--dry-run", "text-generation", TEXT_MODEL], tiny.env);
    if (dry.code !== 0) throw new Error(`svc run --dry-run failed: ${dry.stderr}`);
    const script = dry.stdout.trim();
    if (!/--name \S+/.test(script) || !/--port'? '?\d+/.test(script)) throw new Error(`unexpected dry-run script: ${script.slice(0, 300)}`);
    const viaSvc: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", `bench-launch-${round}`], tiny.env);
      if (run.code !== 0) throw new Error(`svc run failed: ${run.stderr}`);
      const id = run.stdout.trim();
      viaSvc.push((await until(async () => (await tiny.client.services.get(id)).status === "HEALTHY", 120_000, 5)) - started);
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
    const [s, d] = [median(viaSvc), median(bare)];
    return [{ figure: "launch overhead: Docker, svc run → HEALTHY", svc: ms(s), comparison: `docker run → /health 200 ${ms(d)}`, ratio: s / d, goal: "Δ ≤ 100 ms", met: s - d <= 100 }];
  } finally {
    await tiny.cleanup();
  }
}
