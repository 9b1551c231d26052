import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { buildRuntimeImages, dockerSocket, ensureDocker, eventually, registerTinyModels, runSvc, startSvc, tempHome, TEXT_MODEL, type RunningSvc } from "@svc/testing";

/**
 * What Ctrl-C of `svc start` does to inference services and batch jobs, with the real application,
 * a real text-generation service and a real batch job in Docker: by default they keep running and
 * svc says so; with --stop-services-on-exit they are stopped first.
 */
const home = tempHome("svc-on-exit-");
let serviceId = "";
let serviceUrl = "";
let serviceName = "";
let batchId = "";
let batchName = "";
let batchHandle = "";
let modelsHome = "";
/** The runtime images built from this tree, pinned by content tag for every start of the app. */
let runtimeEnv: Record<string, string> = {};

/** Ctrl-C in a terminal: SIGINT to svc start's whole process group. */
async function ctrlC(app: RunningSvc): Promise<number> {
  process.kill(-app.proc.pid, "SIGINT");
  return app.proc.exited;
}

/** Whether the Docker container `handle` (a batch job's) runs. */
async function handleRunning(handle: string): Promise<boolean> {
  const response = await fetch(`http://docker/v1.41/containers/${handle}/json`, { unix: dockerSocket() });
  if (response.status === 404) return false;
  return ((await response.json()) as { State: { Running: boolean } }).State.Running;
}

async function containerRunning(id: string): Promise<boolean> {
  const filters = encodeURIComponent(JSON.stringify({ label: [`svc.service-id=${id}`] }));
  const response = await fetch(`http://docker/v1.41/containers/json?all=1&filters=${filters}`, { unix: dockerSocket() });
  const containers = (await response.json()) as { State: string }[];
  return containers.some((c) => c.State === "running");
}

const answers = async (url: string) => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true;
const env = (app: RunningSvc) => ({ SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) });

beforeAll(async () => {
  ensureDocker();
  runtimeEnv = buildRuntimeImages().env;
  const app = await startSvc({ home, env: runtimeEnv });
  modelsHome = await registerTinyModels(new SvcClient({ baseUrl: app.url }), home);
  await app.stop("SIGTERM");
}, 600_000);

afterAll(async () => {
  const app = await startSvc({ home, env: runtimeEnv });
  const client = new SvcClient({ baseUrl: app.url });
  for (const service of await client.services.list({ all: true })) await client.services.remove(service.id, { force: true }).catch(() => {});
  for (const batch of await client.batches.list({ all: true })) await client.batches.remove(batch.id, { force: true }).catch(() => {});
  await app.stop("SIGTERM");
  rmSync(home, { recursive: true, force: true });
});

describe("Ctrl-C of svc start and the inference services", () => {
  test("by default they keep running, and svc says how many and how to see or stop them", async () => {
    const app = await startSvc({ home, env: runtimeEnv, wrapper: ["setsid"] });
    const client = new SvcClient({ baseUrl: app.url });
    const run = await client.services.run({ task: "text-generation", model: TEXT_MODEL });
    serviceId = run.service!.id;
    serviceName = run.service!.name;
    await eventually(async () => (await client.services.get(serviceId)).status === "HEALTHY", 60_000, "the service to be HEALTHY");
    serviceUrl = (await client.services.get(serviceId)).url!;
    // A batch job that has done its one input and waits (an hour) for more: it stays RUNNING.
    const texts = join(modelsHome, "on-exit-texts");
    mkdirSync(texts, { recursive: true });
    writeFileSync(join(texts, "doc.txt"), "The quick brown fox.");
    const { batch } = await client.batches.run({ task: "chat", model: TEXT_MODEL, inputDir: texts, outputDir: join(modelsHome, "on-exit-out"), params: { max_tokens: 4 }, idleTimeout: 3600 });
    batchId = batch!.id;
    batchName = batch!.name;
    await eventually(async () => (await client.batches.get(batchId)).status === "RUNNING", 120_000, "the batch job to run");
    batchHandle = (await client.batches.get(batchId)).handle!;

    expect(await ctrlC(app)).toBe(0);
    await app.waitForOutput("svc stopped.");
    expect(app.output()).toContain(`1 service keeps running: ${serviceId.slice(0, 13)} (${serviceName}, HEALTHY).`);
    expect(app.output()).toContain("svc ls shows them after the next svc start; svc stop ID stops one");
    expect(app.output()).toContain("--stop-services-on-exit");
    expect(app.output()).toContain(`1 batch job keeps running: ${batchId.slice(0, 13)} (${batchName}, RUNNING). svc batch ls shows them after the next svc start; svc batch stop ID stops one`);
    expect(await containerRunning(serviceId)).toBe(true);
    expect(await answers(serviceUrl)).toBe(true);
    expect(await handleRunning(batchHandle)).toBe(true);
  });

  test("the next svc start adopts them; with --stop-services-on-exit, Ctrl-C stops the service and the batch job first", async () => {
    const app = await startSvc({ home, env: runtimeEnv, wrapper: ["setsid"], args: ["--stop-services-on-exit"] });
    const ls = await runSvc(["ls"], env(app));
    expect(ls.stdout).toContain(serviceId.slice(0, 13));
    expect(ls.stdout).toContain("HEALTHY");
    const batches = await runSvc(["batch", "ls"], env(app));
    expect(batches.stdout).toContain(batchId.slice(0, 13));

    expect(await ctrlC(app)).toBe(0);
    await app.waitForOutput("svc stopped.");
    expect(app.output()).toContain("Stopping 1 service and 1 batch job (--stop-services-on-exit)…");
    expect(app.output()).toContain("Stopped 1 service and 1 batch job.");
    expect(app.output()).not.toContain("keeps running");
    expect(await containerRunning(serviceId)).toBe(false);
    expect(await answers(serviceUrl)).toBe(false);
    expect(await handleRunning(batchHandle)).toBe(false);

    const after = await startSvc({ home, env: runtimeEnv });
    const client = new SvcClient({ baseUrl: after.url });
    expect((await client.services.get(serviceId)).status as ServiceStatus).toBe("STOPPED");
    expect((await client.batches.get(batchId)).status).toBe("STOPPED");
    await after.stop("SIGTERM");
    expect(after.output()).not.toContain("keeps running");
  });
});
