/**
 * Figure 4, Slurm: `svc run` → HEALTHY against a bare sbatch of the same job script → its first
 * /health 200 (polled by hand over one SSH connection: the port file, then a forwarded port), on the
 * Slurm test cluster (images/slurm-test over loopback SSH), medians of 3 (as bench/slurm.ts).
 */
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { SlurmProfile } from "@svc/contracts";
import { ensureDocker, runSvc, startSlurmCluster, startSvc, tempHome, writeKeyPair } from "@svc/testing";
import { probeHealth, sharedSlurmDeps, SlurmEngine, slurmWorkDir } from "@svc/orchestrator-svc";
import { SshConnection, Tunnels } from "@svc/ssh";
import { median, ms, until, type Row } from "../lib/measure";

const MODEL = "svc-tiny/tiny-llama-gguf";
const RUNS = 3;

export async function launchSlurm(): Promise<Row[]> {
  ensureDocker();
  const localHome = tempHome("svc-bench-slurm-");
  const key = writeKeyPair(join(localHome, ".ssh"));
  const cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey] });
  const profile: SlurmProfile = { name: "cluster", schema: "slurm", host: "127.0.0.1", port: cluster.port, user: "svc", home: "~/svc", cache: "/shared/cache", identity_file: key.privateKeyFile };
  const connection = new SshConnection({ host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file }, { userHome: localHome, env: { HOME: localHome } });
  const engine = new SlurmEngine(profile.name, async () => profile, sharedSlurmDeps({ cacheDir: join(localHome, "npm-cache"), connect: () => connection }));
  const tunnels = new Tunnels(connection);
  try {
    const modelDir = (await connection.run("ls -d /shared/cache/models/models--svc-tiny--tiny-llama-gguf/snapshots/*")).stdout.trim();
    const app = await startSvc({ env: { HOME: localHome } });
    const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
    const client = new SvcClient({ baseUrl: app.url });
    const bare: number[] = [];
    const viaSvc: number[] = [];
    try {
      await client.profiles.create({ ...profile, name: "default" });
      await client.models.refresh("default");
      for (let i = 0; i < RUNS; i++) {
        const serviceId = crypto.randomUUID();
        let started = performance.now();
        const { handle } = await engine.submit({ serviceId, name: `bare-${i}`, task: "text-generation", image: "svc-text-generation:latest", args: [], modelDir, job: { time: "00:10:00" } });
        let local = 0;
        const ready = await until(async () => {
          if (!local) {
            const port = (await connection.run(`cat ${slurmWorkDir(profile, serviceId).replace("~/", "$HOME/")}/port 2>/dev/null`)).stdout.trim().split(" ");
            if (port.length !== 2) return false;
            local = await tunnels.ensure(`bare-${i}`, port[0], Number(port[1]));
          }
          return probeHealth("127.0.0.1", local);
        }, 120_000, 50);
        bare.push(ready - started);
        tunnels.close(`bare-${i}`);
        await engine.stop(handle);

        started = performance.now();
        const run = await runSvc(["run", "--time", "00:10:00", "text-generation", MODEL], env);
        if (run.code !== 0) throw new Error(run.stderr);
        const id = run.stdout.trim();
        viaSvc.push((await until(async () => (await client.services.get(id)).status === "HEALTHY", 120_000, 10)) - started);
        if (process.env.BENCH_VERBOSE) {
          const events = (await client.services.get(id)).events.map((e) => `${e.to}@${(Date.parse(e.at) - (performance.timeOrigin + started)).toFixed(0)}`);
          console.error(`svc run: ${events.join(" ")}; bare ${bare[bare.length - 1].toFixed(0)} ms`);
        }
        await client.services.stop(id);
      }
    } finally {
      await app.cleanup();
    }
    const [s, b] = [median(viaSvc), median(bare)];
    return [{ figure: "launch overhead: Slurm, svc run → HEALTHY", svc: ms(s), comparison: `bare sbatch → /health 200 ${ms(b)}`, ratio: s / b, goal: "Δ ≤ 500 ms", met: s - b <= 500 }];
  } finally {
    engine.close();
    await cluster.stop();
  }
}
