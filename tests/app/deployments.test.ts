/**
 * Deployments end to end through the running app, driven by the in-flight counts the gateway
 * reports (POST /api/services/activity): a deployment --replicas 0..3 of the tiny text model grows
 * to 3 HEALTHY real replicas under load and shrinks back to 0 once idle, each step an event with its
 * reason; at 0 a request through /v1 starts one on demand (Docker); on Docker and on the Slurm test cluster.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { chatThroughV1, every, reportInFlight, startAppWithCluster, startAppWithTinyModels, TEXT_MODEL, waitForReplicas, RUNTIME_UPLOAD_TEST_MS, type ClusterApp, type TinyApp } from "@svc/testing";

/** 0..3 → 3 HEALTHY under a load of 3 in flight (target 1) → 0 when idle; `profile` picks the engine. */
async function growAndShrink(client: SvcClient, profile: string, name: string, ms: { up: number; down: number }, appUrl?: string) {
  const run = await client.services.run({ task: "text-generation", model: TEXT_MODEL, profile, name, scaling: { replicas: "0..3", targetInflight: 1, scaleUpAfter: "1s", scaleDownAfter: "3s" } });
  expect(run.deployment).toMatchObject({ name, min: 0, max: 3, targetInflight: 1, scaleUpAfterSeconds: 1, scaleDownAfterSeconds: 3, status: "ACTIVE", healthy: 0, coming: 0 });
  expect(run.service).toMatchObject({ name: `${name}-1`, status: "STOPPED", reason: "scaled to 0: starts on the first request", deployment: run.deployment!.id });

  // Three requests in flight (as the gateway would hold them while a replica starts): one per replica once they exist.
  let details = await client.deployments.get(name);
  const load = every(1000, async () => {
    details = await client.deployments.get(name);
    const names = details.replicas.map((replica) => replica.name);
    await reportInFlight(client, details, Object.fromEntries(names.length >= 3 ? names.map((n) => [n, 1]) : [[`${name}-1`, 3]]));
  });
  const grown = await waitForReplicas(client, name, { healthy: 3, coming: 0 }, ms.up, load);
  expect(grown.replicas.map((replica) => replica.status)).toEqual(["HEALTHY", "HEALTHY", "HEALTHY"]);
  expect(grown.replicas.every((replica) => replica.url !== null && replica.deployment === grown.id)).toBe(true);
  // Each replica answers as the real server it is.
  for (const replica of grown.replicas) expect((await fetch(`${replica.url}/health`)).status).toBe(200);

  // The load ends: each replica drains and stops after 3 s idle; with MIN 0 none is left.
  await reportInFlight(client, grown, {});
  const shrunk = await waitForReplicas(client, name, { healthy: 0, coming: 0, statuses: { STOPPED: 3 } }, ms.down);
  expect(shrunk.status).toBe("ACTIVE");
  const messages = shrunk.events.map((event) => event.message);
  expect(messages[0]).toBe("created with 0..3 replicas: none runs until the first request");
  expect(messages.find((m) => m.startsWith("scaled up to 3"))).toMatch(/^scaled up to 3: \d+(\.\d)? in flight per replica for \d+ s$/);
  expect(messages.filter((m) => m.startsWith("scaled down"))).toEqual([
    expect.stringMatching(new RegExp(`^scaled down to 2: ${name}-\\d idle for 3 s$`)),
    expect.stringMatching(new RegExp(`^scaled down to 1: ${name}-\\d idle for 3 s$`)),
    expect.stringMatching(new RegExp(`^scaled down to 0: ${name}-\\d idle for 3 s$`)),
  ]);
  for (const replica of shrunk.replicas) expect(replica.reason).toMatch(/^scaled down to [012]: idle for 3 s$/);

  // At 0, a request through /v1 starts a replica on demand, as for any on-demand service (appUrl given).
  if (appUrl) {
    const answer = await chatThroughV1(appUrl, TEXT_MODEL);
    expect(answer.ok).toBe(true);
    const woken = await client.deployments.get(name);
    const started = await Promise.all(woken.replicas.map((replica) => client.services.get(replica.id)));
    expect(started.filter((replica) => replica.events.some((event) => event.reason === "started on demand by a request"))).toHaveLength(1);
  }

  // Listed with the others, then stopped and removed.
  expect((await client.deployments.list()).map((d) => d.name)).toContain(name);
  expect(await client.deployments.stop(name)).toMatchObject({ status: "STOPPED" });
  // A replica still running drains first: until it has stopped, removing needs --force.
  await waitForReplicas(client, name, { statuses: { STOPPED: 3 } }, 60_000);
  await client.deployments.remove(name);
  expect((await client.services.list({ all: true })).filter((s) => s.deployment === run.deployment!.id)).toEqual([]);
}

describe("on Docker", () => {
  let tiny: TinyApp;
  beforeAll(async () => {
    tiny = await startAppWithTinyModels();
  }, 600_000);
  afterAll(async () => {
    await tiny?.cleanup();
  });

  test("--replicas 0..3: grows to 3 HEALTHY containers under load, back to 0 when idle, every step an event with its reason", async () => {
    await growAndShrink(tiny.client, "default", "grow", { up: 240_000, down: 120_000 }, tiny.app.url);
  }, 420_000);

  test("bad scaling input is a 400 that says what to fix", async () => {
    for (const [replicas, message] of [
      ["3..1", "replicas: MIN (3) is above MAX (1)"],
      ["0..0", "replicas: MAX must be at least 1"],
    ]) {
      const answer = await tiny.client.services.run({ task: "text-generation", model: TEXT_MODEL, scaling: { replicas } }).catch((error) => error);
      expect(answer.status).toBe(400);
      expect(answer.message).toContain(message);
    }
    const dry = await tiny.client.services.run({ task: "text-generation", model: TEXT_MODEL, name: "dry", dryRun: true, scaling: { replicas: "1..2" } });
    expect(dry.service).toBeNull();
    expect(dry.script).toContain("dry-1");
    expect((await tiny.client.deployments.list({ all: true })).filter((d) => d.name === "dry")).toEqual([]);
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

  test("--replicas 0..3 with Slurm jobs: grows to 3 HEALTHY jobs under load and back to 0 when idle", async () => {
    await growAndShrink(started.client, "cluster", "grow", { up: RUNTIME_UPLOAD_TEST_MS + 240_000, down: 180_000 });
  }, RUNTIME_UPLOAD_TEST_MS + 480_000);
});
