/**
 * The scaler of deployments over a scripted engine and a fake clock: growth to ceil(in flight /
 * target) within MAX after scaleUpAfter, queued replicas counted as coming, drain before stop,
 * MIN 0, MIN restored, stop and scale through the feature, and the events' reasons.
 */
import { describe, expect, test } from "bun:test";
import { ApiError } from "@svc/contracts";
import { deploymentHarness } from "./deployment-harness";
import { SCALED_TO_ZERO } from "../src/deployments/service";
import { defaultTargetInflight } from "../src/deployments/records";

const messages = (h: ReturnType<typeof deploymentHarness>, id: string) => h.deploymentStore.events(id).map((event) => event.message);

describe("scaling up", () => {
  test("grows to ceil(in flight / target), bounded by MAX, once the load stayed above the target for scaleUpAfter", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "1..3", targetInflight: 2, scaleUpAfter: "30s" });
    h.settle(deployment!.id);
    await h.tick();
    expect(h.counts(deployment!.id)).toEqual({ HEALTHY: 1 });
    h.report(deployment!.id, { "tiny-1": 9 });
    await h.tick(1000);
    await h.tick(29_999);
    expect(h.engine.submitted).toHaveLength(1);
    await h.tick(1);
    // ceil(9 / 2) = 5, held to MAX 3.
    expect(h.engine.submitted.map((spec) => spec.name)).toEqual(["tiny-1", "tiny-2", "tiny-3"]);
    expect(messages(h, deployment!.id)).toEqual(["created with 1..3 replicas", "scaled up to 3: 9 in flight per replica for 30 s"]);
    expect(h.deploymentStore.events(deployment!.id)[1]).toMatchObject({ from: 1, to: 3 });
    h.settle(deployment!.id);
    await h.tick(1000);
    expect(h.counts(deployment!.id)).toEqual({ HEALTHY: 3 });
    expect(h.deployments.details("tiny")).toMatchObject({ healthy: 3, coming: 0, inFlight: 9 });
  });

  test("requests waiting in the gateway's fair-share queue count as load: a saturated replica with a queue grows the deployment", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "1..4", targetInflight: 2, scaleUpAfter: "10s" });
    h.settle(deployment!.id);
    await h.tick();
    // At its target, nothing waiting: no growth.
    h.report(deployment!.id, { "tiny-1": 2 });
    await h.tick(1000);
    await h.tick(10_000);
    expect(h.engine.submitted).toHaveLength(1);
    // Still 2 in flight (the replica takes no more), 5 waiting in the gateway: ceil(7 / 2) = 4.
    h.report(deployment!.id, { "tiny-1": 2 }, 5);
    await h.tick(1000);
    await h.tick(10_000);
    expect(h.engine.submitted.map((spec) => spec.name)).toEqual(["tiny-1", "tiny-2", "tiny-3", "tiny-4"]);
    expect(messages(h, deployment!.id).at(-1)).toBe("scaled up to 4: 7 in flight per replica (5 waiting in the gateway's queue) for 10 s");
  });

  test("replicas still queued count as coming: no more submissions while they wait", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "1..8", targetInflight: 5, scaleUpAfter: "10s" });
    h.settle(deployment!.id);
    await h.tick();
    h.report(deployment!.id, { "tiny-1": 20 });
    await h.tick(1000);
    await h.tick(10_000);
    expect(h.engine.submitted).toHaveLength(4);
    h.settle(deployment!.id, "queued");
    for (let i = 0; i < 10; i++) await h.tick(10_000);
    expect(h.counts(deployment!.id)).toEqual({ HEALTHY: 1, PENDING: 3 });
    expect(h.engine.submitted).toHaveLength(4);
    expect(messages(h, deployment!.id).filter((m) => m.startsWith("scaled up"))).toEqual(["scaled up to 4: 20 in flight per replica for 10 s"]);
  });

  test("load rising again while a replica drains keeps that one instead of starting another", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "2..2", targetInflight: 1, scaleUpAfter: "1s", scaleDownAfter: "10s" });
    h.settle(deployment!.id);
    await h.tick();
    h.deployments.scale("tiny", { replicas: "1..2" });
    await h.tick(11_000);
    const drainingOne = h.replicas(deployment!.id).find((row) => row.drainingSince !== null)!;
    const other = h.replicas(deployment!.id).find((row) => row.id !== drainingOne.id)!;
    h.report(deployment!.id, { [other.name]: 3 });
    await h.tick(1000);
    await h.tick(1000);
    expect(h.replicas(deployment!.id).map((row) => [row.status, row.drainingSince])).toEqual([["HEALTHY", null], ["HEALTHY", null]]);
    expect(h.engine.submitted).toHaveLength(2);
    expect(messages(h, deployment!.id).at(-1)).toBe("scaled up to 2: 3 in flight per replica for 1 s");
  });

  test("a replica stopped by hand is started again (same id) to keep MIN, the event says why", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "2..3" });
    h.settle(deployment!.id);
    await h.tick();
    const first = h.replicas(deployment!.id)[0];
    await h.services.stop(first.id);
    await h.tick(1000);
    expect(h.store.get(first.id)!.status).toBe("SUBMITTED");
    expect(h.engine.submitted.filter((spec) => spec.serviceId === first.id)).toHaveLength(2);
    expect(messages(h, deployment!.id)).toContain("scaled up to 2: below MIN 2 (tiny-1 STOPPED: stopped by its creator)");
    expect(h.store.events(first.id).at(-1)!.reason).toBe("scaled up to 2: below MIN 2 (tiny-1 STOPPED: stopped by its creator)");
  });
});

describe("scaling down", () => {
  test("drains the longest-idle replica, and stops it only once it holds no request", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "3..3", targetInflight: 1, scaleDownAfter: "60s" });
    h.settle(deployment!.id);
    await h.tick();
    h.deployments.scale("tiny", { replicas: "1..3" });
    h.report(deployment!.id, { "tiny-1": 1 });
    await h.tick(61_000);
    const byName = () => Object.fromEntries(h.replicas(deployment!.id).map((row) => [row.name, row]));
    expect(byName()["tiny-2"].drainingSince).not.toBeNull();
    expect(byName()["tiny-1"].drainingSince).toBeNull();
    // A request reaches the draining replica: the drain waits for it, and starts over once it is answered.
    await h.tick(2000);
    h.report(deployment!.id, { "tiny-1": 1, "tiny-2": 1 });
    await h.tick(10_000);
    expect(byName()["tiny-2"].status).toBe("HEALTHY");
    h.report(deployment!.id, { "tiny-1": 1 });
    await h.tick(1000);
    expect(byName()["tiny-2"].status).toBe("HEALTHY");
    await h.tick(5000);
    expect(["STOPPING", "STOPPED"]).toContain(byName()["tiny-2"].status);
    for (let i = 0; i < 20; i++) await h.tick(5000);
    expect(h.counts(deployment!.id)).toEqual({ HEALTHY: 1, STOPPED: 2 });
    expect(byName()["tiny-1"].status).toBe("HEALTHY");
    expect(byName()["tiny-2"].reason).toMatch(/^scaled down to \d: idle for 1 min$/);
    // tiny-3 went first while tiny-2's drain waited for its request.
    expect(messages(h, deployment!.id).filter((m) => m.startsWith("scaled down"))).toEqual(["scaled down to 2: tiny-3 idle for 1 min", "scaled down to 1: tiny-2 idle for 1 min"]);
  });

  test("MIN 0: one record waits STOPPED, a request starts it, and idle it drains and stops: none left running", async () => {
    const h = deploymentHarness();
    const run = await h.run({ replicas: "0..2", scaleDownAfter: "10s" });
    const id = run.deployment!.id;
    expect(run.service).toMatchObject({ name: "tiny-1", status: "STOPPED", reason: SCALED_TO_ZERO, deployment: id, policies: { onDemand: true } });
    expect(run.policies!.onDemand).toBe(true);
    expect(h.engine.submitted).toHaveLength(0);
    // Not by hand: the deployment starts its replicas.
    await expect(h.services.restart(run.service!.id)).rejects.toThrow(`Service tiny-1 is a replica of deployment ${id}, which starts and stops its replicas: change how many run with 'svc scale ${id.slice(0, 13)} MIN..MAX'`);
    expect(h.engine.submitted).toHaveLength(0);
    await h.services.restart(run.service!.id, { onDemand: true });
    h.settle(id);
    await h.tick();
    expect(h.counts(id)).toEqual({ HEALTHY: 1 });
    await h.tick(11_000);
    await h.tick(5000);
    await h.tick(1000);
    expect(h.counts(id)).toEqual({ STOPPED: 1 });
    expect(h.store.get(run.service!.id)!.reason).toBe("scaled down to 0: idle for 10 s");
    expect(messages(h, id)).toEqual(["created with 0..2 replicas: none runs until the first request", "scaled down to 0: tiny-1 idle for 10 s"]);
  });
});

describe("stop, scale and bad input", () => {
  test("MAX lowered below the live replicas: the extra ones drain and stop at once, without waiting for idle", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "3..3", scaleDownAfter: "1h" });
    h.settle(deployment!.id);
    await h.tick();
    h.report(deployment!.id, { "tiny-1": 2, "tiny-2": 1 });
    h.deployments.scale("tiny", { replicas: "1..1" });
    await h.tick(1000);
    await h.tick(5000);
    await h.tick(1000);
    expect(Object.fromEntries(h.replicas(deployment!.id).map((row) => [row.name, row.status]))).toEqual({ "tiny-1": "HEALTHY", "tiny-2": "HEALTHY", "tiny-3": "STOPPED" });
    expect(h.replicas(deployment!.id)[2].reason).toBe("scaled down to 2: above MAX 1");
    h.report(deployment!.id, { "tiny-1": 1 });
    await h.tick(1000);
    await h.tick(5000);
    await h.tick(1000);
    expect(Object.fromEntries(h.replicas(deployment!.id).map((row) => [row.name, row.status]))).toEqual({ "tiny-1": "HEALTHY", "tiny-2": "STOPPED", "tiny-3": "STOPPED" });
    expect(messages(h, deployment!.id).filter((m) => m.startsWith("scaled down"))).toEqual(["scaled down to 1: above MAX 1"]);
  });

  test("stop drains every replica and stops them; scale makes it ACTIVE again and MIN comes back", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.run({ replicas: "2..2" });
    h.settle(deployment!.id);
    await h.tick();
    h.report(deployment!.id, { "tiny-1": 1 });
    expect(await h.deployments.stop("tiny")).toMatchObject({ status: "STOPPED" });
    await h.tick(6000);
    const status = () => Object.fromEntries(h.replicas(deployment!.id).map((row) => [row.name, row.status]));
    expect(status()["tiny-1"]).toBe("HEALTHY");
    h.report(deployment!.id, {});
    await h.tick(1000);
    await h.tick(1000);
    expect(status()).toEqual({ "tiny-1": "STOPPED", "tiny-2": "STOPPED" });
    expect(h.store.get(h.replicas(deployment!.id)[0].id)!.reason).toBe("deployment stopped: drained");
    await expect(h.deployments.stop("tiny")).rejects.toThrow(/already STOPPED/);
    expect(h.deployments.scale("tiny", { replicas: "1..2" })).toMatchObject({ status: "ACTIVE", min: 1, max: 2 });
    await h.tick(1000);
    expect(h.counts(deployment!.id)).toEqual({ SUBMITTED: 1, STOPPED: 1 });
    expect(messages(h, deployment!.id).slice(1)).toEqual([
      "deployment stopped by its creator: every replica drains and stops",
      "started again by its creator: replicas 1..2",
      expect.stringMatching(/^scaled up to 1: below MIN 1 \(tiny-[12] STOPPED: deployment stopped: drained\)$/),
    ]);
  });

  test("bad bounds and durations are refused with what to fix; a live deployment is removed only with force", async () => {
    const h = deploymentHarness();
    for (const [replicas, message] of [
      ["3..1", "replicas: MIN (3) is above MAX (1)"],
      ["0..0", "replicas: MAX must be at least 1"],
      ["1..99", "replicas: MAX may be at most 64"],
    ]) {
      const error = await h.run({ replicas }).catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(400);
      expect(error.message).toContain(message);
    }
    expect(await h.run({ replicas: "1", scaleUpAfter: "0s" }).catch((e) => e.message)).toContain("--scale-up-after must be at least 1s");
    await h.run({ replicas: "1..2" });
    expect(() => h.deployments.scale("tiny", { replicas: "2..1" })).toThrow("replicas: MIN (2) is above MAX (1)");
    await expect(h.run({ replicas: "1..2" })).rejects.toThrow(/A deployment named tiny is active/);
    await expect(h.deployments.remove("tiny", false)).rejects.toThrow(/stop it first/);
    expect(await h.deployments.remove("tiny", true)).toMatchObject({ name: "tiny" });
    expect(h.deployments.list({ all: true })).toEqual([]);
    expect(h.store.list({ all: true })).toEqual([]);
  });
});

describe("the default target", () => {
  test("is the svc runtime's --parallel slots (1 without it), and 32 for vLLM and SGLang", async () => {
    expect(defaultTargetInflight("svc-text-generation:abc", [])).toBe(1);
    expect(defaultTargetInflight("svc-text-generation:abc", ["--parallel", "4"])).toBe(4);
    expect(defaultTargetInflight("svc-text-generation:abc", ["-np=3", "--threads", "2"])).toBe(3);
    expect(defaultTargetInflight("vllm/vllm-openai:v0.11.0", [])).toBe(32);
    expect(defaultTargetInflight("lmsysorg/sglang:latest", ["--parallel", "4"])).toBe(32);
    const h = deploymentHarness();
    expect((await h.run({ replicas: "1..2" })).deployment!.targetInflight).toBe(1);
  });
});

describe("a replica's own policies", () => {
  test("--idle-stop stops an idle replica as for any service, and the deployment brings one back to keep MIN", async () => {
    const h = deploymentHarness();
    const { deployment } = await h.deployments.run({ task: "text-generation", model: "acme/tiny", name: "tiny", policies: { idleStop: "1m" }, scaling: { replicas: "1..2" } }, { replicas: "1..2" });
    h.settle(deployment!.id);
    await h.tick();
    const [first] = h.replicas(deployment!.id);
    expect(first).toMatchObject({ status: "HEALTHY", idleStopSeconds: 60 });
    await h.tick(61_000);
    await h.tick(1000);
    expect(h.store.get(first.id)).toMatchObject({ status: "STOPPED", reason: "idle for 1 min" });
    await h.tick(1000);
    // Decided on the tick the stop went through: the reason is the replica's own.
    expect(messages(h, deployment!.id).at(-1)).toMatch(/^scaled up to 1: below MIN 1 \(tiny-1 STOPP(ING|ED): idle for 1 min\)$/);
    expect(h.counts(deployment!.id)).toMatchObject({ SUBMITTED: 1 });
  });
});

test("a deployment name too long for its replicas' names (NAME-64 within 63 characters) is a 400 saying how long it may be", async () => {
  const h = deploymentHarness();
  const error = await h.run({ replicas: "1..2" }, "n".repeat(61)).catch((caught) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error.status).toBe(400);
  expect(error.message).toContain("give a name of at most 60 characters");
  expect(h.deploymentStore.active()).toEqual([]);
  expect((await h.run({ replicas: "1..2" }, "n".repeat(60))).deployment).toMatchObject({ name: "n".repeat(60) });
});
