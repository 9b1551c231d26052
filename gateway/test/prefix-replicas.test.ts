/**
 * Prefix routing in front of real replicas: three bare svc text runtimes on the tiny model behind
 * the gateway's /v1 as one deployment routed by prefix (its routes served as orchestrator-svc
 * serves them). A workload of 4 long shared system prompts, several streamed requests each with
 * different questions: each prompt's requests go to one replica, as /metrics counts them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseMetricsText } from "@svc/testing";
import { longPrefixes, RIG_DEPLOYMENT, runPrefixWorkload, startReplicaRig, type ReplicaRig } from "../src/testing";

let rig: ReplicaRig;

beforeAll(async () => {
  rig = await startReplicaRig(3, "prefix", ["--parallel", "2"]);
});

afterAll(async () => {
  await rig?.stop();
});

test("4 long shared prefixes over 3 replicas: each prefix's requests go to one replica, per /metrics", async () => {
  const perPrefix = 5;
  const sent = await runPrefixWorkload(rig.url, longPrefixes(4), perPrefix);
  expect(sent).toHaveLength(4 * perPrefix);
  const replicaOf = new Map<number, Set<string>>();
  for (const request of sent) replicaOf.set(request.prefix, (replicaOf.get(request.prefix) ?? new Set()).add(request.service));
  for (const services of replicaOf.values()) expect(services.size).toBe(1);

  const metrics = parseMetricsText(await (await fetch(`${rig.url}/metrics`)).text());
  const decisions = metrics.get("svc_v1_routing_total")!.samples;
  expect(decisions).toEqual([{ labels: { deployment: RIG_DEPLOYMENT, decision: "prefix" }, value: 4 * perPrefix }]);
  // Per replica: as many requests as the prefixes it holds sent, and none elsewhere.
  const name = (id: string) => rig.routes.find((route) => route.id === id)!.name;
  const expected = new Map<string, number>();
  for (const [, services] of replicaOf) {
    const service = name([...services][0]);
    expected.set(service, (expected.get(service) ?? 0) + perPrefix);
  }
  const routed = metrics.get("svc_v1_routed_requests_total")!.samples;
  expect(new Map(routed.map((sample) => [sample.labels.service, sample.value]))).toEqual(expected);
  expect(routed.every((sample) => sample.labels.deployment === RIG_DEPLOYMENT)).toBe(true);

  // Switched to least-busy, one request at a time: every one goes to the first replica by name
  // (ties go there, so a light load leaves the others idle for the scaler), whatever its prefix.
  rig.setRouting("least-busy");
  const packed = await runPrefixWorkload(rig.url, longPrefixes(4), 3);
  expect(new Set(packed.map((request) => name(request.service)))).toEqual(new Set([[...rig.routes].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))[0].name]));
  const after = parseMetricsText(await (await fetch(`${rig.url}/metrics`)).text());
  expect(after.get("svc_v1_routing_total")!.samples.find((sample) => sample.labels.decision === "least_busy")!.value).toBe(12);
});
