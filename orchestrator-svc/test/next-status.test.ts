import { describe, expect, test } from "bun:test";
import type { ServiceStatus } from "@svc/contracts";
import { nextStatus } from "../src/reconciler/next-status";
import type { Observation } from "../src/engines/engine";

const running: Observation = { phase: "running", host: "localhost", port: 8080 };
const failed: Observation = { phase: "exited", outcome: "failed", reason: "exit code 1: boom" };

describe("nextStatus", () => {
  const cases: [ServiceStatus, Observation, boolean | undefined, ServiceStatus][] = [
    ["SUBMITTED", { phase: "queued", reason: "Priority" }, undefined, "PENDING"],
    ["SUBMITTED", { phase: "missing" }, undefined, "SUBMITTED"],
    ["PENDING", running, false, "STARTING"],
    ["SUBMITTED", running, true, "HEALTHY"],
    ["STARTING", running, true, "HEALTHY"],
    ["HEALTHY", running, false, "UNHEALTHY"],
    ["UNHEALTHY", running, true, "HEALTHY"],
    ["UNHEALTHY", running, false, "UNHEALTHY"],
    ["STARTING", failed, undefined, "FAILED"],
    ["HEALTHY", { phase: "exited", outcome: "timeout", reason: "time limit" }, undefined, "TIMEOUT"],
    ["HEALTHY", { phase: "exited", outcome: "cancelled", reason: "scancel" }, undefined, "STOPPED"],
    ["HEALTHY", { phase: "missing" }, undefined, "FAILED"],
    ["STOPPING", running, true, "STOPPING"],
    ["STOPPING", failed, undefined, "STOPPED"],
    ["STOPPING", { phase: "missing" }, undefined, "STOPPED"],
  ];
  test.each(cases)("%s + %o (healthy %p) → %s", (current, observation, healthy, expected) => {
    expect(nextStatus(current, observation, healthy).status).toBe(expected);
  });

  test("a failure carries the engine's reason; a user stop says so", () => {
    expect(nextStatus("STARTING", failed, undefined).reason).toBe("exit code 1: boom");
    expect(nextStatus("STOPPING", failed, undefined).reason).toBe("stopped by its creator");
    expect(nextStatus("PENDING", { phase: "queued", reason: "Resources" }, undefined).reason).toBe("Resources");
  });
});

describe("nextStatus with a grace period (--grace-period)", () => {
  const running: Observation = { phase: "running", host: "localhost", port: 8080 };
  test("a starting service that has not answered within it is UNHEALTHY, saying why", () => {
    expect(nextStatus("STARTING", running, false, { seconds: 30, over: true })).toEqual({
      status: "UNHEALTHY",
      reason: "its health check did not answer within the 30 s grace period after it started (--grace-period)",
    });
  });
  test("within it, or without one, it stays STARTING; an answer makes it HEALTHY", () => {
    expect(nextStatus("STARTING", running, false, { seconds: 30, over: false }).status).toBe("STARTING");
    expect(nextStatus("STARTING", running, false).status).toBe("STARTING");
    expect(nextStatus("UNHEALTHY", running, true, { seconds: 30, over: true }).status).toBe("HEALTHY");
  });
});
