/**
 * `bun bench/orchestrator.ts`: what the manager adds on top of the runtimes, on Docker with the
 * real text-generation runtime and the tiny model. Prints:
 * - status detection latency: /health first answers → the API shows HEALTHY;
 * - manager overhead: run → HEALTHY, minus the bare runtime's own start;
 * - `svc ls` p50 with 10,000 records;
 * - proxy requests/s and first-byte latency through the gateway vs direct.
 * Traffic stays on loopback; every loop is bounded.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { ensureDocker, freePort, REPO_ROOT, startSvc, tempHome } from "@svc/testing";
import { ServiceStore } from "@svc/orchestrator-svc";

const MODEL = "svc-tiny/tiny-llama-gguf";
const RUNS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(1)} ms`;

function sh(command: string[]) {
  const result = Bun.spawnSync(command, { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")}: ${result.stderr}`);
  return result.stdout.toString();
}

async function until(check: () => Promise<boolean>, limitMs = 60_000, stepMs = 2) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return performance.now();
    await Bun.sleep(stepMs);
  }
  throw new Error("timed out");
}

/** The bare runtime's own start: process spawn → /health 200. */
async function bareStart(modelDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "runtimes/text-generation/src/main.ts", "--model", modelDir, "--port", String(port)], { cwd: REPO_ROOT, stdout: "ignore", stderr: "ignore" });
  const ready = await until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok);
  proc.kill();
  await proc.exited;
  return ready - started;
}

async function load(url: string, headers: Record<string, string>, seconds: number, concurrency: number): Promise<number> {
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        done++;
      }
    }),
  );
  return done / seconds;
}

async function firstByte(url: string, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer bench-key" }, body: JSON.stringify(body) });
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

ensureDocker();
sh([process.execPath, "images/build.ts", "text-generation"]);
const app = await startSvc();
try {
  const client = new SvcClient({ baseUrl: app.url });
  const profileHome = join(app.home, "profile-home");
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: profileHome, cache_dir: join(app.home, "cache") });
  const modelDir = sh([process.execPath, "runtimes/tiny-models/src/cli.ts", join(profileHome, "models")]).split("\n")[0].trim().split(/\s+/).pop()!;
  await client.models.refresh("default");

  const detection: number[] = [];
  const runToHealthy: number[] = [];
  let serviceId = "";
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const { service } = await client.services.run({ task: "text-generation", model: MODEL, apiKey: "bench-key" });
    const port = service!.port!;
    const [answered, shown] = await Promise.all([
      until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok),
      until(async () => (await client.services.get(service!.id)).status === "HEALTHY"),
    ]);
    detection.push(shown - answered);
    runToHealthy.push(shown - started);
    if (i < RUNS - 1) await client.services.remove(service!.id, { force: true });
    else serviceId = service!.id;
  }
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) bare.push(await bareStart(modelDir));
  console.log(`status detection latency (health answers → HEALTHY shown): p50 ${ms(median(detection))}, max ${ms(Math.max(...detection))}`);
  console.log(`run → HEALTHY: p50 ${ms(median(runToHealthy))}; bare runtime start: p50 ${ms(median(bare))}; manager overhead: ${ms(median(runToHealthy) - median(bare))}`);

  const record = await client.services.get(serviceId);
  const direct = `${record.url}/v1/models`;
  const proxied = `${app.url}/proxy/${serviceId}/v1/models`;
  const auth = { authorization: "Bearer bench-key" };
  console.log(`proxy requests/s (GET /v1/models, 16 concurrent, 3 s): direct ${(await load(direct, auth, 3, 16)).toFixed(0)}, through the gateway ${(await load(proxied, auth, 3, 16)).toFixed(0)}`);
  const chat = { model: MODEL, messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 4, stream: true };
  const ttfbDirect: number[] = [];
  const ttfbProxy: number[] = [];
  for (let i = 0; i < 20; i++) {
    ttfbDirect.push(await firstByte(`${record.url}/v1/chat/completions`, chat));
    ttfbProxy.push(await firstByte(`${app.url}/proxy/${serviceId}/v1/chat/completions`, chat));
  }
  console.log(`streamed chat first byte: direct p50 ${ms(median(ttfbDirect))}, through the gateway p50 ${ms(median(ttfbProxy))}`);
  await client.services.remove(serviceId, { force: true });
} finally {
  await app.cleanup();
}

// svc ls against 10,000 records (a separate home, filled before the app starts).
const home = tempHome();
mkdirSync(join(home, "data", "orchestrator-svc"), { recursive: true });
const store = new ServiceStore(join(home, "data", "orchestrator-svc", "orchestrator.db"));
const at = new Date().toISOString();
for (let i = 0; i < 10_000; i++) {
  store.insert(
    {
      id: crypto.randomUUID(), name: `svc-${i}`, task: "text-generation", model: MODEL, revision: "0".repeat(40), profile: "default",
      status: i % 100 === 0 ? "FAILED" : "STOPPED", reason: null, host: null, port: null, engine: "docker", runtime: "svc-text-generation:latest",
      handle: null, apiKey: null, spec: JSON.stringify({ job: {}, engineArgs: [], launch: {} }), createdBy: "bench", createdAt: at, updatedAt: at,
    },
    null,
  );
}
const lsApp = await startSvc({ home });
try {
  const env = { ...process.env, SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1", SVC_PORT: String(lsApp.port) };
  for (const args of [["ls"], ["ls", "--all"]]) {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const result = Bun.spawnSync([join(REPO_ROOT, "svc"), ...args], { env, stdout: "pipe" });
      times.push(performance.now() - started);
      if (result.exitCode !== 0) throw new Error(`svc ${args.join(" ")} failed`);
    }
    console.log(`svc ${args.join(" ")} with 10,000 records: p50 ${ms(median(times))}`);
  }
} finally {
  await lsApp.cleanup();
}
