import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { buildRuntimeImages, dockerSocket, ensureDocker, eventually, registerTinyModels, runSvc, startSvc, tempHome, TEXT_MODEL, type RunningSvc } from "@svc/testing";

/**
 * What Ctrl-C of `svc start` does to inference services, with the real application and a real
 * text-generation service in Docker: by default they keep running and svc says so; with
 * --stop-services-on-exit they are stopped first.
 */
const home = tempHome("svc-on-exit-");
let serviceId = "";
let serviceUrl = "";
let serviceName = "";
/** The runtime images built from this tree, pinned by content tag for every start of the app. */
let runtimeEnv: Record<string, string> = {};

/** Ctrl-C in a terminal: SIGINT to svc start's whole process group. */
async function ctrlC(app: RunningSvc): Promise<number> {
  process.kill(-app.proc.pid, "SIGINT");
  return app.proc.exited;
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
  await registerTinyModels(new SvcClient({ baseUrl: app.url }), home);
  await app.stop("SIGTERM");
}, 600_000);

afterAll(async () => {
  const app = await startSvc({ home, env: runtimeEnv });
  const client = new SvcClient({ baseUrl: app.url });
  for (const service of await client.services.list({ all: true })) await client.services.remove(service.id, { force: true }).catch(() => {});
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

    expect(await ctrlC(app)).toBe(0);
    await app.waitForOutput("svc stopped.");
    expect(app.output()).toContain(`1 service keeps running: ${serviceId.slice(0, 13)} (${serviceName}, HEALTHY).`);
    expect(app.output()).toContain("svc ls shows them after the next svc start; svc stop ID stops one");
    expect(app.output()).toContain("--stop-services-on-exit");
    expect(await containerRunning(serviceId)).toBe(true);
    expect(await answers(serviceUrl)).toBe(true);
  });

  test("the next svc start adopts it; with --stop-services-on-exit, Ctrl-C stops it first", async () => {
    const app = await startSvc({ home, env: runtimeEnv, wrapper: ["setsid"], args: ["--stop-services-on-exit"] });
    const ls = await runSvc(["ls"], env(app));
    expect(ls.stdout).toContain(serviceId.slice(0, 13));
    expect(ls.stdout).toContain("HEALTHY");

    expect(await ctrlC(app)).toBe(0);
    await app.waitForOutput("svc stopped.");
    expect(app.output()).toContain("Stopping 1 service (--stop-services-on-exit)…");
    expect(app.output()).toContain("Stopped 1 service.");
    expect(app.output()).not.toContain("keeps running");
    expect(await containerRunning(serviceId)).toBe(false);
    expect(await answers(serviceUrl)).toBe(false);

    const after = await startSvc({ home, env: runtimeEnv });
    const client = new SvcClient({ baseUrl: after.url });
    expect((await client.services.get(serviceId)).status as ServiceStatus).toBe("STOPPED");
    await after.stop("SIGTERM");
    expect(after.output()).not.toContain("keeps running");
  });
});
