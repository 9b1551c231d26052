/**
 * `bun bench/slurm.ts`: the Slurm adapter against the test cluster (images/slurm-test: a real
 * one-node slurmctld + slurmd behind sshd, in a container with host networking). Prints:
 * - SSH round trips (remote commands) and forwarded channels per reconcile tick with 1 and with 20
 *   services, and the tick's time;
 * - run → HEALTHY through svc (CLI `svc run`, the application's reconciler, the tunnel) against a
 *   bare sbatch of the same job script polled by hand over one SSH connection.
 * Traffic stays on loopback; every loop is bounded.
 */
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { SlurmProfile } from "@svc/contracts";
import { ensureDocker, startSlurmCluster, writeKeyPair, runSvc, startSvc, tempHome } from "@svc/testing";
import { probeHealth, SlurmEngine, slurmWorkDir, type LaunchSpec } from "@svc/orchestrator-svc";
import { SshConnection, Tunnels } from "@svc/ssh";

const MODEL = "svc-tiny/tiny-llama-gguf";
const RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function until(check: () => Promise<boolean>, limitMs = 60_000, stepMs = 50): Promise<number> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return performance.now();
    await Bun.sleep(stepMs);
  }
  throw new Error("timed out");
}

ensureDocker();
const localHome = tempHome("svc-bench-slurm-");
const key = writeKeyPair(join(localHome, ".ssh"));
const cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey] });
const profile: SlurmProfile = { name: "cluster", schema: "slurm", host: "127.0.0.1", port: cluster.port, user: "svc", home: "~/svc", cache: "/shared/cache", identity_file: key.privateKeyFile };
const sshOptions = { userHome: localHome, env: { HOME: localHome } };
const connection = new SshConnection({ host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file }, sshOptions);
let channels = 0;
const forward = connection.forward.bind(connection);
connection.forward = (host: string, port: number) => {
  channels++;
  return forward(host, port);
};
const engine = new SlurmEngine(profile.name, async () => profile, () => connection);
const tunnels = new Tunnels(connection);
const modelDir = (await connection.run("ls -d /shared/cache/models/models--svc-tiny--tiny-llama-gguf/snapshots/*")).stdout.trim();

function spec(name: string): LaunchSpec {
  const serviceId = crypto.randomUUID();
  return { serviceId, name, task: "text-generation", image: "svc-text-generation:latest", args: [], modelDir, job: { time: "00:10:00" } };
}

/** One reconcile tick as the reconciler does it: one inspect for all, a health probe per running service. */
async function tick(handles: string[]) {
  const trips = connection.roundTrips;
  const opened = channels;
  const started = performance.now();
  const observations = await engine.inspect(handles);
  const inspectMs = performance.now() - started;
  await Promise.all([...observations.values()].map((o) => (o.phase === "running" && o.port ? probeHealth(o.host, o.port) : false)));
  return { trips: connection.roundTrips - trips, channels: channels - opened, ms: performance.now() - started, inspectMs, running: [...observations.values()].filter((o) => o.phase === "running").length };
}

try {
  console.log("SSH round trips per reconcile tick (remote commands; forwarded channels are opened by health probes through the tunnels):");
  for (const count of [1, 20]) {
    const handles: string[] = [];
    for (let i = 0; i < count; i++) handles.push((await engine.submit(spec(`bench-${count}-${i}`))).handle);
    await until(async () => (await tick(handles)).running > 0, 60_000, 500);
    await Bun.sleep(3000); // let the running ones load and their probe connections settle
    const samples = [];
    for (let i = 0; i < 5; i++) samples.push(await tick(handles));
    const last = samples[samples.length - 1];
    console.log(
      `  ${String(count).padStart(2)} services (${last.running} running): ${last.trips} command(s) per tick, ${Math.max(...samples.map((s) => s.channels))} new channel(s) per tick at most, status pass ${ms(median(samples.map((s) => s.inspectMs)))}, whole tick with health probes ${ms(median(samples.map((s) => s.ms)))} (medians of ${samples.length})`,
    );
    await Promise.all(handles.map((handle) => engine.stop(handle)));
  }

  // Bare sbatch of the same script: submit, wait for the port file, then /health through one forwarded port.
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = spec(`bare-${i}`);
    const started = performance.now();
    const { handle } = await engine.submit(s);
    let local = 0;
    const ready = await until(async () => {
      if (!local) {
        const port = (await connection.run(`cat ${slurmWorkDir(profile, s.serviceId).replace("~/", "$HOME/")}/port 2>/dev/null`)).stdout.trim().split(" ");
        if (port.length !== 2) return false;
        local = await tunnels.ensure(`bare-${i}`, port[0], Number(port[1]));
      }
      return probeHealth("127.0.0.1", local);
    });
    bare.push(ready - started);
    tunnels.close(`bare-${i}`);
    await engine.stop(handle);
  }

  // Through svc: the CLI's run, the application's reconciler, the tunnel; HEALTHY as the API shows it.
  const app = await startSvc({ env: { HOME: localHome } });
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  const client = new SvcClient({ baseUrl: app.url });
  try {
    await client.profiles.create({ ...profile, name: "default" });
    await client.models.refresh("default");
    const viaSvc: number[] = [];
    const cliReturned: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const run = await runSvc(["run", "--time", "00:10:00", "text-generation", MODEL], env);
      if (run.code !== 0) throw new Error(run.stderr);
      const id = run.stdout.trim();
      cliReturned.push(performance.now() - started);
      viaSvc.push((await until(async () => (await client.services.get(id)).status === "HEALTHY", 60_000, 10)) - started);
      await client.services.stop(id);
    }
    console.log(`run → HEALTHY: bare sbatch ${ms(median(bare))}, svc run ${ms(median(viaSvc))}, overhead ${ms(median(viaSvc) - median(bare))} (medians of ${RUNS}); \`svc run\` itself returned after ${ms(median(cliReturned))}`);
  } finally {
    await app.cleanup();
  }
} finally {
  engine.close();
  await cluster.stop();
}
