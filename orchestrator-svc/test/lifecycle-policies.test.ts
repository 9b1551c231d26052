/**
 * The reconciler's lifecycle policies against a scripted engine: --idle-stop (STOPPED "idle for …"),
 * and --renew (successor submitted before the job's end time, handover once it is healthy, the old
 * job drained and cancelled; a restart of svc in the middle resumes; a successor still queued when
 * the old job ends leaves the service PENDING on it).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeEngine } from "@svc/testing";
import { ServiceStore, type NewServiceRow } from "../src/db/service-store";
import { Reconciler } from "../src/reconciler/reconciler";
import { DRAIN_MS } from "../src/reconciler/renewal";
import { InFlightCounts } from "../src/deployments/in-flight";
import { instanceKey } from "../src/engines/engine";

const SPEC = JSON.stringify({ job: { time: "00:02:00" }, engineArgs: [], launch: { image: "img", args: [], modelDir: "/m" } });
const running = (port: number, endsAt?: string) => ({ phase: "running" as const, host: "127.0.0.1", port, ...(endsAt ? { endsAt } : {}) });
const ID = "00000000-0000-4000-8000-000000000001";

function setup(engine: FakeEngine, healthyPorts: number[], fields: Partial<NewServiceRow>) {
  const store = new ServiceStore(join(mkdtempSync(join(tmpdir(), "svc-lifecycle-")), "o.db"));
  const clock = { now: Date.parse("2026-11-22T00:00:00.000Z") };
  const inFlight = new InFlightCounts(() => clock.now);
  const reconcilerOn = () =>
    new Reconciler({ store, engineFor: () => engine, probe: async (_host, port) => healthyPorts.includes(port), now: () => clock.now, inFlight });
  const at = new Date(clock.now).toISOString();
  store.insert(
    {
      id: ID, name: "s", task: "text-generation", model: "acme/tiny", revision: "r", profile: "p", status: "SUBMITTED", reason: null, host: null, port: null,
      engine: engine.kind, runtime: "img", handle: "h1", apiKey: null, spec: SPEC, createdBy: "test", createdAt: at, updatedAt: at, ...fields,
    },
    null,
  );
  /** Lets the background submit of a successor finish. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  return { store, clock, inFlight, reconcilerOn, settle, row: () => store.get(ID)!, reasons: () => store.events(ID).map((e) => e.reason ?? "") };
}

describe("--idle-stop", () => {
  test("a HEALTHY service that answered no request for that long is stopped: STOPPED, 'idle for 5 s', with events", async () => {
    const engine = new FakeEngine();
    const { clock, reconcilerOn, row, store } = setup(engine, [8001], { idleStopSeconds: 5 });
    const reconciler = reconcilerOn();
    engine.script("h1", running(8001));
    await reconciler.tick();
    expect(row().status).toBe("HEALTHY");
    clock.now += 3000;
    store.recordActivity([{ id: ID, lastRequestAt: new Date(clock.now).toISOString() }]);
    clock.now += 3000;
    await reconciler.tick();
    expect(row().status).toBe("HEALTHY");
    clock.now += 2500;
    await reconciler.tick();
    expect(engine.stopped).toEqual(["h1"]);
    await reconciler.tick();
    expect(row()).toMatchObject({ status: "STOPPED", reason: "idle for 5 s" });
    expect(store.events(ID).slice(-2).map((e) => [e.to, e.reason])).toEqual([["STOPPING", "idle for 5 s"], ["STOPPED", "idle for 5 s"]]);
  });

  test("a request still in flight (a stream longer than the idle time) holds the stop off until it ends", async () => {
    const engine = new FakeEngine();
    const { clock, inFlight, reconcilerOn, row } = setup(engine, [8001], { idleStopSeconds: 5 });
    const reconciler = reconcilerOn();
    engine.script("h1", running(8001));
    await reconciler.tick();
    for (let second = 0; second < 12; second += 2) {
      clock.now += 2000;
      inFlight.record([{ id: ID, count: 1 }], clock.now);
      await reconciler.tick();
    }
    expect(engine.stopped).toEqual([]);
    expect(row().status).toBe("HEALTHY");
    inFlight.record([], clock.now);
    await reconciler.tick();
    expect(engine.stopped).toEqual(["h1"]);
  });

  test("reports never move the clock back, and unknown services are ignored", () => {
    const { store, row } = setup(new FakeEngine(), [], {});
    expect(store.recordActivity([{ id: ID, lastRequestAt: "2026-11-22T00:00:10.000Z" }, { id: "nope", lastRequestAt: "2026-11-22T00:00:10.000Z" }])).toBe(1);
    store.recordActivity([{ id: ID, lastRequestAt: "2026-11-22T00:00:05.000Z" }]);
    expect(row().lastRequestAt).toBe("2026-11-22T00:00:10.000Z");
  });
});

describe("--renew", () => {
  const END = "2026-11-22T00:02:00.000Z";

  test("successor at endsAt − renewBefore, handover when healthy, old job drained then cancelled; events say each step", async () => {
    const engine = new FakeEngine("slurm");
    const { clock, reconcilerOn, row, settle, reasons } = setup(engine, [8001, 8002], { renewBeforeSeconds: 60 });
    const reconciler = reconcilerOn();
    engine.script("h1", running(8001, END));
    await reconciler.tick();
    expect(row()).toMatchObject({ status: "HEALTHY", endsAt: END, successor: null });
    clock.now += 59_000;
    await reconciler.tick();
    expect(engine.submitted).toHaveLength(0);
    clock.now += 1000;
    await reconciler.tick();
    await settle();
    expect(engine.submitted.map((s) => s.generation)).toEqual([1]);
    const successor = JSON.parse(row().successor!);
    expect(successor).toMatchObject({ phase: "starting", generation: 1 });
    engine.script(successor.handle, { phase: "queued", reason: "queued" }, running(8002, "2026-11-22T00:03:05.000Z"));
    await reconciler.tick();
    expect(row().handle).toBe("h1");
    await reconciler.tick();
    expect(row()).toMatchObject({ status: "HEALTHY", handle: successor.handle, port: 8002, generation: 1, endsAt: "2026-11-22T00:03:05.000Z" });
    expect(JSON.parse(row().successor!)).toMatchObject({ phase: "draining", handle: "h1" });
    await reconciler.tick();
    expect(engine.stopped).toEqual([]);
    clock.now += DRAIN_MS;
    await reconciler.tick();
    expect(engine.stopped).toEqual(["h1"]);
    expect(row().successor).toBeNull();
    expect(reasons().filter((r) => r.startsWith("renewal") || r.startsWith("handover"))).toEqual([
      `renewal: job h1 ends at ${END}; submitting a successor`,
      `renewal: successor job ${successor.handle} submitted`,
      `handover: job ${successor.handle} serves new requests; job h1 drains (${DRAIN_MS / 1000} s at most)`,
      "renewal: job h1 drained and cancelled",
    ]);
  });

  test("svc restarted between recording the successor and learning its handle: the job is adopted by its instance key, not submitted twice", async () => {
    const engine = new FakeEngine("slurm");
    const { clock, store, reconcilerOn, row, reasons } = setup(engine, [8001, 8002], {
      status: "HEALTHY", renewBeforeSeconds: 60, host: "127.0.0.1", port: 8001, generation: 0,
      successor: JSON.stringify({ phase: "submitting", handle: null, generation: 1, since: "2026-11-22T00:00:00.000Z" }),
    });
    engine.known.set(instanceKey(ID, 1), "h-successor");
    engine.script("h1", running(8001, END));
    engine.script("h-successor", running(8002));
    const restarted = reconcilerOn();
    await restarted.tick();
    expect(reasons()).toContain("renewal: found successor job h-successor, submitted before svc restarted");
    await restarted.tick();
    expect(row()).toMatchObject({ handle: "h-successor", port: 8002 });
    expect(engine.submitted).toHaveLength(0);
    // Killed again while it drained: the next svc still cancels the old job once the drain time is over.
    const again = reconcilerOn();
    clock.now += DRAIN_MS;
    await again.tick();
    expect(engine.stopped).toEqual(["h1"]);
    expect(store.get(ID)!.successor).toBeNull();
  });

  test("a successor still queued when the old job ends: the service is PENDING on it with the scheduler's reason, then HEALTHY", async () => {
    const engine = new FakeEngine("slurm");
    const { reconcilerOn, row } = setup(engine, [8002], {
      status: "HEALTHY", renewBeforeSeconds: 60, host: "127.0.0.1", port: 8001,
      successor: JSON.stringify({ phase: "starting", handle: "h2", generation: 1, since: "2026-11-22T00:00:00.000Z" }),
    });
    const reconciler = reconcilerOn();
    engine.script("h1", { phase: "exited", outcome: "timeout", reason: "the Slurm job reached its --time limit (TIMEOUT)" });
    engine.script("h2", { phase: "queued", reason: "waiting for resources to become free (Slurm: Resources)" }, running(8002));
    await reconciler.tick();
    expect(row()).toMatchObject({ status: "PENDING", handle: "h2", generation: 1, successor: null });
    expect(row().reason).toBe("the job h1 ended before its successor h2 could start: waiting for resources to become free (Slurm: Resources)");
    await reconciler.tick();
    expect(row()).toMatchObject({ status: "HEALTHY", handle: "h2", port: 8002 });
  });
});
