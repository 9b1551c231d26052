import type { ServiceStatus } from "@svc/contracts";
import type { Observation } from "../engines/engine";

export interface Decision {
  status: ServiceStatus;
  reason: string | null;
}

/**
 * The state machine: where a service's recorded status should go given what the engine reports
 * and (when it runs) whether its health check answers, and whether a starting service's grace
 * period (`--grace-period`) is over. Pure, so every rule is tested alone.
 */
export function nextStatus(
  current: ServiceStatus,
  observation: Observation,
  healthy: boolean | undefined,
  grace?: { seconds: number; over: boolean },
  stopReason = "stopped by its creator",
): Decision {
  const stopping = current === "STOPPING";
  switch (observation.phase) {
    case "missing":
      if (stopping) return { status: "STOPPED", reason: stopReason };
      if (current === "SUBMITTED") return { status: current, reason: null };
      return { status: "FAILED", reason: "the engine no longer knows this service (removed outside svc?)" };
    case "queued":
      return stopping ? { status: current, reason: null } : { status: "PENDING", reason: observation.reason ?? null };
    case "running":
      if (stopping) return { status: current, reason: null };
      if (healthy) return { status: "HEALTHY", reason: null };
      if (current === "HEALTHY" || current === "UNHEALTHY") return { status: "UNHEALTHY", reason: "its health check stopped answering" };
      if (current === "STARTING" && grace?.over) {
        return { status: "UNHEALTHY", reason: `its health check did not answer within the ${grace.seconds} s grace period after it started (--grace-period)` };
      }
      return { status: "STARTING", reason: null };
    case "exited":
      if (stopping || observation.outcome === "cancelled") return { status: "STOPPED", reason: stopping ? stopReason : observation.reason };
      if (observation.outcome === "timeout") return { status: "TIMEOUT", reason: observation.reason };
      return { status: "FAILED", reason: observation.reason };
  }
}
