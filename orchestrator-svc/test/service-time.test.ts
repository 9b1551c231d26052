/** A service's running time and GPU-hours, from its events (GRES × elapsed on Slurm). */
import { describe, expect, test } from "bun:test";
import type { ServiceEvent, ServiceStatus } from "@svc/contracts";
import type { ServiceRow } from "../src/db/service-store";
import { runningSecondsOf, timeOf } from "../src/services/records";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 10, minute)).toISOString();
const event = (minute: number, to: ServiceStatus): ServiceEvent => ({ at: at(minute), from: null, to, reason: null });

/** Submitted at 0, pending until 2, running 2–12 (HEALTHY from 3), stopped at 12; restarted: running 20–25, still running. */
const events = [event(0, "SUBMITTED"), event(1, "PENDING"), event(2, "STARTING"), event(3, "HEALTHY"), event(11, "STOPPING"), event(12, "STOPPED"), event(19, "SUBMITTED"), event(20, "STARTING"), event(21, "HEALTHY")];
const now = new Date(at(25));

const row = (engine: "docker" | "slurm", gres?: number) =>
  ({ engine, spec: JSON.stringify({ job: gres === undefined ? {} : { gres }, engineArgs: [], launch: { args: [], modelDir: "/m" } }) }) as unknown as ServiceRow;

describe("running time", () => {
  test("counts from STARTING until the service stopped, over every run, up to now while it runs", () => {
    expect(runningSecondsOf(events, now)).toBe((10 + 5) * 60);
    expect(runningSecondsOf([event(0, "SUBMITTED"), event(1, "PENDING")], now)).toBe(0);
    expect(runningSecondsOf([event(0, "SUBMITTED"), event(1, "STARTING"), event(2, "FAILED")], now)).toBe(60);
  });

  test("GPU-hours are GRES × running hours on Slurm, and none on Docker", () => {
    expect(timeOf(row("slurm", 2), events, now)).toEqual({ runningSeconds: 900, gpuHours: 0.5 });
    expect(timeOf(row("slurm"), events, now)).toEqual({ runningSeconds: 900, gpuHours: 0 });
    expect(timeOf(row("docker", 1), events, now)).toEqual({ runningSeconds: 900, gpuHours: null });
  });
});
