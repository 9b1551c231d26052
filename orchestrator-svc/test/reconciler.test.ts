/**
 * The reconciler against scripted engines (no Docker, no cluster): how recorded statuses follow
 * what engines report, engines kept apart from each other, stale reads, and adoption of a submit
 * interrupted before its handle was recorded.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeEngine } from "@svc/testing";
import { ServiceStore, type NewServiceRow, type ServiceRow } from "../src/db/service-store";
import { Reconciler } from "../src/reconciler/reconciler";
import type { Engine } from "../src/engines/engine";

const running = (port: number) => ({ phase: "running" as const, host: "127.0.0.1", port });

function setup(engines: Record<string, Engine>, healthyPorts: number[] = []) {
  const store = new ServiceStore(join(mkdtempSync(join(tmpdir(), "svc-reconciler-")), "o.db"));
  const logged: string[] = [];
  let now = Date.parse("2026-11-22T00:00:00.000Z");
  const reconciler = new Reconciler({
    store,
    engineFor: (row: ServiceRow) => engines[row.profile],
    probe: async (_host, port) => healthyPorts.includes(port),
    log: (message) => logged.push(message),
    now: () => now,
  });
  let count = 0;
  const add = (profile: string, fields: Partial<NewServiceRow> = {}) => {
    const at = new Date(now).toISOString();
    const id = `00000000-0000-4000-8000-${String(++count).padStart(12, "0")}`;
    store.insert(
      {
        id, name: `s${count}`, task: "text-generation", model: "acme/tiny", revision: "r", profile, status: "SUBMITTED", reason: null, host: null, port: null,
        engine: "docker", runtime: "img", handle: `h${count}`, apiKey: null, spec: "{}", createdBy: "test", createdAt: at, updatedAt: at, ...fields,
      },
      null,
    );
    return id;
  };
  const status = (id: string) => store.get(id)!.status;
  return { store, reconciler, add, status, logged, advance: (ms: number) => (now += ms) };
}

describe("reconciler", () => {
  test("a service whose engine reports it running and whose health check answers is HEALTHY after one tick", async () => {
    const engine = new FakeEngine();
    const { reconciler, add, status, store } = setup({ p: engine }, [8001]);
    const id = add("p", { handle: "h-ok" });
    engine.script("h-ok", running(8001));
    await reconciler.tick();
    expect(status(id)).toBe("HEALTHY");
    expect(store.get(id)).toMatchObject({ host: "127.0.0.1", port: 8001 });
    expect(store.events(id).map((e) => e.to)).toEqual(["SUBMITTED", "HEALTHY"]);
  });

  test("a queued service's reason follows the scheduler's while it stays PENDING, without new events", async () => {
    const engine = new FakeEngine("slurm");
    const { reconciler, add, store } = setup({ p: engine });
    const id = add("p", { handle: "h-q" });
    engine.script("h-q", { phase: "queued", reason: "queued, not scheduled yet (Slurm: None)" });
    await reconciler.tick();
    engine.script("h-q", { phase: "queued", reason: "waiting for resources to become free (Slurm: Resources)" });
    await reconciler.tick();
    expect(store.get(id)).toMatchObject({ status: "PENDING", reason: "waiting for resources to become free (Slurm: Resources)" });
    expect(store.events(id).map((e) => e.to)).toEqual(["SUBMITTED", "PENDING"]);
  });

  test("an engine that fails leaves the other engines' services alone, and is retried after a wait of its own", async () => {
    const broken = new FakeEngine("slurm").fail(new Error("the cluster does not answer"));
    const working = new FakeEngine();
    const { reconciler, add, status, logged, advance } = setup({ down: broken, up: working }, [8002]);
    const stuck = add("down", { handle: "h-down", status: "HEALTHY" });
    const fine = add("up", { handle: "h-up" });
    working.script("h-up", running(8002));
    await reconciler.tick();
    expect(status(fine)).toBe("HEALTHY");
    expect(status(stuck)).toBe("HEALTHY");
    expect(logged.join("\n")).toContain("the cluster does not answer");

    // Within its wait the failing engine is not asked again; the other one is.
    const calls = broken.inspectCalls;
    working.script("h-up", { phase: "exited", outcome: "failed", reason: "exited with code 3" });
    await reconciler.tick();
    expect(broken.inspectCalls).toBe(calls);
    expect(status(fine)).toBe("FAILED");

    // After its wait, and once it answers again, its services are reconciled.
    broken.recover().script("h-down", { phase: "exited", outcome: "cancelled", reason: "cancelled" });
    advance(1_000);
    await reconciler.tick();
    expect(status(stuck)).toBe("STOPPED");
  });

  test("a read made before a stop does not overwrite it", async () => {
    const engine = new FakeEngine();
    const { reconciler, add, status, store } = setup({ p: engine }, [8003]);
    const id = add("p", { handle: "h-stop", status: "STARTING" });
    engine.script("h-stop", running(8003));
    const release = engine.hold();
    const tick = reconciler.tick();
    await Bun.sleep(10);
    store.transition(id, "STOPPING", "stop requested by its creator");
    release();
    await tick;
    expect(status(id)).toBe("STOPPING");
    expect(store.events(id).map((e) => e.to)).toEqual(["STARTING", "STOPPING"]);
  });

  test("a submit interrupted before its handle was recorded is adopted from the engine, or failed after a grace period", async () => {
    const engine = new FakeEngine();
    const { reconciler, add, status, store, advance } = setup({ p: engine }, [8004]);
    const reached = add("p", { handle: null });
    const lost = add("p", { handle: null });
    engine.known.set(reached, "h-adopted");
    engine.script("h-adopted", running(8004));
    await reconciler.tick();
    expect(store.get(reached)!.handle).toBe("h-adopted");
    expect(status(lost)).toBe("SUBMITTED");
    await reconciler.tick();
    expect(status(reached)).toBe("HEALTHY");

    // One still being submitted by this process is left to its submit, however long it takes.
    const slow = add("p", { handle: null });
    let finish!: () => void;
    const submit = reconciler.submitting(slow, () => new Promise<void>((resolve) => (finish = resolve)));
    advance(60_000);
    await reconciler.tick();
    expect(status(lost)).toBe("FAILED");
    expect(store.get(lost)!.reason).toBe("the submission was interrupted before the engine accepted it");
    expect(status(slow)).toBe("SUBMITTED");
    finish();
    await submit;
    await reconciler.tick();
    expect(status(slow)).toBe("FAILED");
  });

  test("a starting service that fails its health check longer than its grace period is UNHEALTHY, then HEALTHY when it answers", async () => {
    const engine = new FakeEngine();
    const healthy: number[] = [];
    const { reconciler, add, status, store, advance } = setup({ p: engine }, healthy);
    const id = add("p", { handle: "h-slow", spec: JSON.stringify({ job: {}, engineArgs: [], gracePeriod: 30, launch: { args: [], modelDir: "/m" } }) });
    const other = add("p", { handle: "h-other" });
    engine.script("h-slow", running(8101));
    engine.script("h-other", running(8102));
    await reconciler.tick();
    expect([status(id), status(other)]).toEqual(["STARTING", "STARTING"]);
    advance(29_000);
    await reconciler.tick();
    expect(status(id)).toBe("STARTING");
    advance(1_000);
    await reconciler.tick();
    expect([status(id), status(other)]).toEqual(["UNHEALTHY", "STARTING"]);
    expect(store.get(id)!.reason).toBe("its health check did not answer within the 30 s grace period after it started (--grace-period)");
    healthy.push(8101);
    await reconciler.tick();
    expect(status(id)).toBe("HEALTHY");
  });

  // That the answer wakes the loop at once is health-watch.test.ts's; this is the loop handing it its services.
  test("a running loop records a starting Docker service HEALTHY once its health check answers", async () => {
    const engine = new FakeEngine();
    const healthy: number[] = [];
    const { reconciler, add, status } = setup({ p: engine }, healthy);
    const id = add("p", { handle: "h-up", host: "127.0.0.1", port: 8201 });
    engine.script("h-up", running(8201));
    reconciler.start();
    try {
      await eventually(() => status(id) === "STARTING");
      healthy.push(8201);
      await eventually(() => status(id) === "HEALTHY");
    } finally {
      reconciler.stop();
    }
  });
});

async function eventually(check: () => boolean) {
  for (let i = 0; i < 2000 && !check(); i++) await Bun.sleep(1);
  expect(check()).toBe(true);
}
