/**
 * Deployments end to end through the running app under real load: a deployment --replicas 0..3 of
 * the tiny text model, sent twelve concurrent streamed chats through /v1, starts on demand, grows to
 * 3 HEALTHY real replicas from the in-flight counts the gateway reports, and shrinks back to 0 as the
 * load falls, with no failed or cut request and each step an event with its reason; on Docker and on
 * the Slurm test cluster.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { chatThroughV1, eventsLike, eventually, parseMetricsText, startAppWithCluster, startAppWithTinyModels, TEXT_MODEL, waitForReplicas, RUNTIME_UPLOAD_TEST_MS, type ChatResult, type ClusterApp, type TinyApp } from "@svc/testing";

/** `workers` clients, each streaming chat completions through /v1 one after another until stopped; every answer is kept. */
function streamLoad(appUrl: string, workers: number) {
  const results: ChatResult[] = [];
  let stopping = false;
  const running = Array.from({ length: workers }, async () => {
    while (!stopping) results.push(await chatThroughV1(appUrl, TEXT_MODEL, { stream: true, maxTokens: 48 }));
  });
  return {
    results,
    async stop() {
      stopping = true;
      await Promise.all(running);
      return results;
    },
  };
}

/** Requests /v1 sent to each replica of `deployment` (svc_v1_routed_requests_total), by replica name. */
async function routedTo(appUrl: string, deployment: string): Promise<Map<string, number>> {
  const metrics = parseMetricsText(await (await fetch(`${appUrl}/metrics`)).text());
  const samples = metrics.get("svc_v1_routed_requests_total")?.samples ?? [];
  return new Map(samples.filter((sample) => sample.labels.deployment === deployment).map((sample) => [sample.labels.service!, sample.value]));
}

/**
 * 0..3 (target 4 in flight) under real load through /v1: twelve concurrent streams start the first
 * replica on demand and grow the deployment to 3 HEALTHY replicas, each of which serves; one stream
 * left lets two drain and stop while it goes on at the third; none left, the last one stops too.
 * Every request is answered whole, and each step is an event with its reason. `profile` picks the engine.
 */
async function growAndShrink(client: SvcClient, appUrl: string, profile: string, name: string, ms: { up: number; down: number }) {
  const run = await client.services.run({ task: "text-generation", model: TEXT_MODEL, profile, name, scaling: { replicas: "0..3", targetInflight: 4, scaleUpAfter: "1s", scaleDownAfter: "3s" } });
  expect(run.deployment).toMatchObject({ name, min: 0, max: 3, targetInflight: 4, scaleUpAfterSeconds: 1, scaleDownAfterSeconds: 3, status: "ACTIVE", healthy: 0, coming: 0 });
  expect(run.service).toMatchObject({ name: `${name}-1`, status: "STOPPED", reason: "scaled to 0: starts on the first request", deployment: run.deployment!.id });

  const heavy = streamLoad(appUrl, 12);
  const grown = await waitForReplicas(client, name, { healthy: 3, coming: 0 }, ms.up);
  expect(grown.replicas.every((replica) => replica.url !== null && replica.deployment === grown.id)).toBe(true);
  await eventually(async () => [...(await routedTo(appUrl, name)).values()].filter((count) => count > 0).length === 3, 120_000, "every replica to serve part of the load");

  // One stream left: one replica takes it (the first by name, unless the last heavy streams ended
  // elsewhere over 3 s after its own and the scaler drained it as the longest idle), the other two go
  // idle, drain and stop.
  await heavy.stop();
  const light = streamLoad(appUrl, 1);
  const one = await waitForReplicas(client, name, { healthy: 1, coming: 0, statuses: { STOPPED: 2 } }, ms.down);
  const survivor = one.replicas.find((replica) => replica.status === "HEALTHY")!;
  const during = light.results.length;
  await eventually(async () => light.results.length > during + 2, 60_000, "the remaining stream to go on being answered");
  await light.stop();
  // The answer under way when the other two were seen STOPPED may have begun before; those after it came from the one left.
  expect(new Set(light.results.slice(during + 1).map((answer) => answer.service))).toEqual(new Set([survivor.id]));
  const shrunk = await waitForReplicas(client, name, { healthy: 0, coming: 0, statuses: { STOPPED: 3 } }, ms.down);

  const failed = [...heavy.results, ...light.results].filter((answer) => !answer.ok).map((answer) => `${answer.status} ${answer.text.slice(0, 200)}`);
  expect(failed).toEqual([]);
  expect(heavy.results.length).toBeGreaterThanOrEqual(12);
  expect(shrunk.status).toBe("ACTIVE");
  const messages = shrunk.events.map((event) => event.message);
  expect(messages[0]).toBe("created with 0..3 replicas: none runs until the first request");
  // Past a replica's target (and one ready), requests wait in the gateway's fair-share queue: load too, which the event says.
  expect(messages.find((m) => m.startsWith("scaled up to 3"))).toMatch(/^scaled up to 3: \d+(\.\d)? in flight per replica( \(\d+ waiting in the gateway's queue\))? for \d+ s$/);
  const others = shrunk.replicas.filter((replica) => replica.id !== survivor.id).map((replica) => replica.name);
  const downs = messages.filter((m) => m.startsWith("scaled down"));
  expect(downs).toEqual([
    expect.stringMatching(new RegExp(`^scaled down to 2: (${others.join("|")}) idle for 3 s$`)),
    expect.stringMatching(new RegExp(`^scaled down to 1: (${others.join("|")}) idle for 3 s$`)),
    `scaled down to 0: ${survivor.name} idle for 3 s`,
  ]);
  expect(downs[0].split(" ")[4]).not.toBe(downs[1].split(" ")[4]);
  for (const replica of shrunk.replicas) expect(replica.reason).toMatch(/^scaled down to [012]: idle for 3 s$/);
  // The first replica was started by the first request (the on-demand path), the others by the scaler.
  expect(await eventsLike(client, shrunk.replicas.find((replica) => replica.name === `${name}-1`)!.id, "started on demand by a request")).toHaveLength(1);

  // Listed with the others, then stopped and removed.
  expect((await client.deployments.list()).map((d) => d.name)).toContain(name);
  expect(await client.deployments.stop(name)).toMatchObject({ status: "STOPPED" });
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

  test("--replicas 0..3 under 12 concurrent streams through /v1: 3 HEALTHY containers, then back to 0 as the load falls; every request answered, every step an event with its reason", async () => {
    await growAndShrink(tiny.client, tiny.app.url, "default", "grow", { up: 240_000, down: 120_000 });
  }, 420_000);

  test("--routing prefix over 3 replicas: each of 4 long shared prompt prefixes goes to one replica, counted in /metrics", async () => {
    const run = await tiny.client.services.run({ task: "text-generation", model: TEXT_MODEL, name: "by-prefix", scaling: { replicas: "3..3", routing: "prefix" } });
    expect(run.deployment).toMatchObject({ routing: "prefix", min: 3, max: 3 });
    await waitForReplicas(tiny.client, "by-prefix", { healthy: 3, coming: 0 }, 240_000);
    // Four system prompts longer than the 2,048 characters the key reads, each followed by different questions.
    const prefixes = Array.from({ length: 4 }, (_, p) => `You are helper ${p}. ${Array.from({ length: 400 }, (_, i) => `fact${(i * 31 + p * 977) % 1009}`).join(" ")}`);
    const servedBy = new Map<number, Set<string>>();
    for (let round = 0; round < 3; round++) {
      for (const [p, system] of prefixes.entries()) {
        const answer = await fetch(`${tiny.app.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: TEXT_MODEL, max_tokens: 4, temperature: 0, messages: [{ role: "system", content: system }, { role: "user", content: `Question ${round}?` }] }),
        });
        expect(answer.status).toBe(200);
        await answer.json();
        servedBy.set(p, (servedBy.get(p) ?? new Set()).add(answer.headers.get("x-svc-service")!));
      }
    }
    for (const services of servedBy.values()) expect(services.size).toBe(1);
    const metrics = parseMetricsText(await (await fetch(`${tiny.app.url}/metrics`)).text());
    const decisions = metrics.get("svc_v1_routing_total")!.samples.filter((sample) => sample.labels.deployment === "by-prefix");
    expect(decisions).toEqual([{ labels: { deployment: "by-prefix", decision: "prefix" }, value: 12 }]);
    expect([...(await routedTo(tiny.app.url, "by-prefix")).values()].reduce((sum, count) => sum + count, 0)).toBe(12);
    await tiny.client.deployments.remove("by-prefix", { force: true });
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

  test("--replicas 0..3 with Slurm jobs under 12 concurrent streams through /v1: 3 HEALTHY jobs, then back to 0; every request answered", async () => {
    await growAndShrink(started.client, started.app.url, "cluster", "grow", { up: RUNTIME_UPLOAD_TEST_MS + 240_000, down: 180_000 });
  }, RUNTIME_UPLOAD_TEST_MS + 480_000);
});
