/**
 * Stop when idle and start on the first request, end to end on Docker and on the Slurm test
 * cluster: a service run with --idle-stop 5s --on-demand is STOPPED ("idle for 5 s") after idling;
 * ten requests arriving together, through /proxy/<id> and then through the gateway's /v1 by model,
 * start it once each time and are all answered; a streamed /v1 request receives keep-alive comments
 * while it waits; and (Slurm) a start the scheduler cannot
 * place within --start-timeout is a 503 with Retry-After and the scheduler's reason.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { chatThroughProxy, chatThroughV1, eventually, eventsLike, runSvc, startAppWithCluster, startAppWithTinyModels, TEXT_MODEL, type ChatResult, type ClusterApp, type TinyApp, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

const WAITING = ": waiting for the service to start";

/** The idle → on-demand cycle, the same on every engine. */
async function idleThenOnDemand(appUrl: string, client: SvcClient, id: string) {
  const stopped = () => eventually(async () => (await client.services.get(id)).status === "STOPPED", 120_000, `${id} to stop for idling`);
  await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 240_000, `${id} to be HEALTHY`);
  await stopped();
  const details = await client.services.get(id);
  expect(details.reason).toBe("idle for 5 s");
  expect(details.events.filter((e) => e.to === "STOPPING" && e.reason === "idle for 5 s")).toHaveLength(1);

  // Ten requests at once while it is STOPPED: one start, ten answers; through /proxy/<id>, then through /v1 by model.
  const failures = (answers: ChatResult[]) => answers.filter((a) => !a.ok).map((a) => `${a.status} ${a.text.slice(0, 300)}`);
  // While they wait they count in flight on it (what the scaler and idle stops read), and no longer once answered.
  const inFlight = async () => /^svc_v1_in_flight\{service="lazy"\} (\d+)$/m.exec(await (await fetch(`${appUrl}/metrics`)).text())?.[1];
  const waiting = Promise.all(Array.from({ length: 10 }, () => chatThroughProxy(appUrl, id, TEXT_MODEL)));
  await eventually(async () => (await inFlight()) === "10", 120_000, "the ten /proxy requests counted in flight while they wait");
  expect(failures(await waiting)).toEqual([]);
  expect(await inFlight()).toBeUndefined();
  expect(await eventsLike(client, id, "started on demand by a request")).toHaveLength(1);
  await stopped();
  expect(failures(await Promise.all(Array.from({ length: 10 }, () => chatThroughV1(appUrl, TEXT_MODEL))))).toEqual([]);
  expect(await eventsLike(client, id, "started on demand by a request")).toHaveLength(2);

  // Idle again; a streamed /v1 request waits with keep-alive comments, then gets the service's stream.
  await stopped();
  const streamed = await chatThroughV1(appUrl, TEXT_MODEL, { stream: true });
  expect(streamed.ok).toBe(true);
  expect(streamed.text.startsWith(WAITING)).toBe(true);
  expect(streamed.text.indexOf(WAITING)).toBeLessThan(streamed.text.indexOf("data: "));
  expect(await eventsLike(client, id, "started on demand by a request")).toHaveLength(3);
}

describe("on Docker", () => {
  let tiny: TinyApp;
  beforeAll(async () => {
    tiny = await startAppWithTinyModels();
  }, 600_000);
  afterAll(async () => {
    await tiny?.cleanup();
  });

  test("--idle-stop 5s --on-demand: STOPPED when idle; 10 concurrent requests start it once and are all answered; a streamed one gets keep-alive comments", async () => {
    const run = await runSvc(["run", "--idle-stop", "5s", "--on-demand", "text-generation", TEXT_MODEL, "--name", "lazy"], tiny.env);
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    const details = await runSvc(["details", id], tiny.env);
    expect(details.stdout).toMatch(/policies\s+idle-stop=5 s on-demand start-timeout=15 min/);
    await idleThenOnDemand(tiny.app.url, tiny.client, id);
  }, 600_000);

  test("--renew is refused on Docker, saying why; a bad duration names the option", async () => {
    const renew = await runSvc(["run", "--renew", "--time", "10", "text-generation", TEXT_MODEL, "--dry-run"], tiny.env);
    expect(renew.code).not.toBe(0);
    expect(renew.stderr).toContain("--renew is for Slurm jobs");
    const bad = await runSvc(["run", "--idle-stop", "soon", "text-generation", TEXT_MODEL, "--dry-run"], tiny.env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`--idle-stop "soon": give a duration`);
    const dry = await runSvc(["run", "--idle-stop", "30m", "--on-demand", "text-generation", TEXT_MODEL, "--dry-run"], tiny.env);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain("Policies: idle-stop=30 min on-demand start-timeout=15 min");
  });
});

describe("on Slurm", () => {
  let started: ClusterApp;
  beforeAll(async () => {
    started = await startAppWithCluster("cluster");
  }, 600_000);
  afterAll(async () => {
    await started?.cleanup();
  });

  // A start timeout with room for a Slurm start on a loaded machine (job, Bun, the model): the ten requests must not see it.
  test("--idle-stop 5s --on-demand: the same cycle with Slurm jobs", async () => {
    const run = await runSvc(["run", "-p", "cluster", "--idle-stop", "5s", "--on-demand", "--start-timeout", "60s", "text-generation", TEXT_MODEL, "--name", "lazy"], started.env);
    expect(run.code).toBe(0);
    await idleThenOnDemand(started.app.url, started.client, run.stdout.trim());
  }, RUNTIME_UPLOAD_TEST_MS + 300_000);

  test("a start the scheduler cannot place within --start-timeout: 503 with Retry-After and the pending reason; the start goes on", async () => {
    const { client, cluster, app } = started;
    const id = (await client.services.list({ all: true })).find((s) => s.name === "lazy")!.id;
    await eventually(async () => (await client.services.get(id)).status === "STOPPED", 120_000, "the service to stop for idling");
    // The node's memory taken by another job: the service's next job has to wait for resources.
    const blocker = (await cluster.execAsUser("sbatch --parsable --mem=7500M --wrap 'sleep 600'")).output.trim();
    expect(blocker).toMatch(/^\d+$/);
    const answer = await fetch(`${app.url}/proxy/${id}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 4 }),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("30");
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("start_timeout");
    expect(body.error.message).toContain("within its start timeout (1 min)");
    expect(body.error.message).toMatch(/PENDING: .*\(Slurm: \w+\)/);
    await cluster.execAsUser(`scancel ${blocker}`);
    await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 120_000, "the start to go on once the node is free");
  }, 360_000);
});
