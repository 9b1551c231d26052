/**
 * The gateway's half of the lifecycle policies, alone: request times reported in batches (not one
 * call per request), and ensureServing's single-flight start, its bound, and what it refuses.
 */
import { describe, expect, test } from "bun:test";
import type { ActivityReport, ServiceRecord, ServiceStatus } from "@svc/contracts";
import { ActivityRecorder } from "../src/activity";
import { NotServing, OnDemandStarts } from "../src/on-demand/ensure-serving";
import { asksForStream } from "../src/on-demand/wait-stream";

const record = (status: ServiceStatus, policies: Partial<ServiceRecord["policies"]> = {}): ServiceRecord =>
  ({
    id: "00000000-0000-4000-8000-000000000001",
    status,
    reason: status === "PENDING" ? "waiting for resources to become free (Slurm: Resources)" : null,
    url: status === "HEALTHY" ? "http://127.0.0.1:9" : null,
    policies: { idleStop: "5 s", idleStopSeconds: 5, onDemand: true, startTimeout: "1 s", startTimeoutSeconds: 1, renew: false, renewBefore: null, renewBeforeSeconds: null, ...policies },
  }) as ServiceRecord;

describe("ActivityRecorder", () => {
  test("many requests make one report per period, with the latest time of each service; a failed report is sent again", async () => {
    const reports: ActivityReport[] = [];
    let fail = true;
    const recorder = new ActivityRecorder(async (report) => {
      reports.push(report);
      if (fail) throw new Error("orchestrator-svc down");
    }, 3_600_000);
    for (let i = 0; i < 100; i++) recorder.touch("a", 1000 + i);
    recorder.touch("b", 5000);
    // The period's end, as the timer would reach it.
    await recorder.flush();
    expect(reports).toHaveLength(1);
    expect(reports[0].services).toEqual([
      { id: "a", lastRequestAt: new Date(1099).toISOString() },
      { id: "b", lastRequestAt: new Date(5000).toISOString() },
    ]);
    fail = false;
    await recorder.flush();
    expect(reports).toHaveLength(2);
    expect(reports[1].services.map((s) => s.id).sort()).toEqual(["a", "b"]);
    recorder.stop();
  });

  test("in-flight counts go out when they changed, falling to zero included, and again each period while any is above zero; a failed report is sent again", async () => {
    const reports: ActivityReport[] = [];
    let fail = false;
    const counts = new Map<string, number>();
    const recorder = new ActivityRecorder(async (report) => {
      reports.push(report);
      if (fail) throw new Error("orchestrator-svc down");
    }, 3_600_000);
    recorder.countInFlight(() => new Map(counts));
    counts.set("a", 12);
    recorder.inFlightChanged();
    await recorder.flush();
    expect(reports.at(-1)).toEqual({ services: [], inFlight: [{ id: "a", count: 12 }] });
    // Unchanged counts above zero are said again (orchestrator-svc forgets counts not heard again).
    await recorder.flush();
    expect(reports.at(-1)).toEqual({ services: [], inFlight: [{ id: "a", count: 12 }] });
    recorder.touch("a", 7000);
    await recorder.flush();
    expect(reports.at(-1)).toEqual({ services: [{ id: "a", lastRequestAt: new Date(7000).toISOString() }], inFlight: [{ id: "a", count: 12 }] });
    counts.delete("a");
    fail = true;
    await recorder.flush();
    expect(reports.at(-1)!.inFlight).toEqual([]);
    fail = false;
    await recorder.flush();
    expect(reports).toHaveLength(5);
    expect(reports.at(-1)!.inFlight).toEqual([]);
    // All at zero and said: nothing more to say.
    await recorder.flush();
    expect(reports).toHaveLength(5);
    recorder.stop();
  });

  test("requests waiting in the fair-share queue per deployment go with the counts, again each period while any waits, until none does", async () => {
    const reports: ActivityReport[] = [];
    const [inFlight, waiting] = [new Map<string, number>(), new Map<string, number>()];
    const recorder = new ActivityRecorder(async (report) => void reports.push(report), 3_600_000);
    recorder.countInFlight(() => new Map(inFlight), () => new Map(waiting));
    inFlight.set("a", 2);
    waiting.set("deployment-1", 5);
    await recorder.flush();
    expect(reports.at(-1)).toEqual({ services: [], inFlight: [{ id: "a", count: 2 }], waiting: [{ deployment: "deployment-1", count: 5 }] });
    await recorder.flush();
    expect(reports).toHaveLength(2);
    // The queue drained (and the requests ended): said once, then nothing.
    waiting.clear();
    inFlight.clear();
    await recorder.flush();
    expect(reports.at(-1)).toEqual({ services: [], inFlight: [] });
    await recorder.flush();
    expect(reports).toHaveLength(3);
    recorder.stop();
  });
});

describe("ensureServing", () => {
  test("ten callers for a STOPPED on-demand service: one restart, one wait, all get the HEALTHY record", async () => {
    let restarts = 0;
    let reads = 0;
    const starts = new OnDemandStarts(
      {
        restart: async () => (restarts++, record("SUBMITTED")),
        get: async () => (++reads >= 3 ? record("HEALTHY") : record("STARTING")) as never,
      },
      5,
    );
    const waited: string[] = [];
    const results = await Promise.all(Array.from({ length: 10 }, () => starts.ensureServing(record("STOPPED"), { onWait: (r) => waited.push(r.status) })));
    expect(restarts).toBe(1);
    expect(results.every((r) => r.status === "HEALTHY")).toBe(true);
    expect(waited).toHaveLength(10);
  });

  test("past --start-timeout: NotServing with the scheduler's reason and a Retry-After", async () => {
    const starts = new OnDemandStarts({ restart: async () => record("PENDING"), get: async () => record("PENDING") as never }, 50);
    const error = await starts.ensureServing(record("STOPPED")).catch((e) => e);
    expect(error).toBeInstanceOf(NotServing);
    expect(error.code).toBe("start_timeout");
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.message).toContain("PENDING: waiting for resources to become free (Slurm: Resources)");
  });

  test("a service that is not on demand is not started; a caller that goes away stops waiting, the start goes on", async () => {
    let restarts = 0;
    const starts = new OnDemandStarts({ restart: async () => (restarts++, record("STARTING")), get: async () => record("STARTING") as never }, 10);
    await expect(starts.ensureServing(record("STOPPED", { onDemand: false }))).rejects.toMatchObject({ code: "service_not_ready" });
    expect(restarts).toBe(0);
    const controller = new AbortController();
    const waiting = starts.ensureServing(record("STOPPED", { startTimeoutSeconds: 5 }), { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(restarts).toBe(1);
  });

  test("a streamed request is one whose JSON body has stream: true", () => {
    const body = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).buffer as ArrayBuffer;
    expect(asksForStream(body({ stream: true }))).toBe(true);
    expect(asksForStream(body({ stream: "true" }))).toBe(false);
    expect(asksForStream(new TextEncoder().encode("not json").buffer as ArrayBuffer)).toBe(false);
    expect(asksForStream(undefined)).toBe(false);
  });
});
