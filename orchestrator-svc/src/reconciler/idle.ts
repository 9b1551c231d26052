import { formatDuration } from "@svc/contracts";
import type { ServiceRow } from "../db/service-store";

/** The reason an idle-stopped service keeps ("idle for 30 min"), and how to recognise it. */
export const idleReason = (seconds: number) => `idle for ${formatDuration(seconds)}`;
export const isIdleReason = (reason: string | null) => reason !== null && reason.startsWith("idle for ");
/** The reasons the scaler of a deployment stops a replica with ("scaled down to 1: idle for 5 min", "deployment stopped: …"). */
export const SCALED_DOWN = "scaled down to ";
export const DEPLOYMENT_STOPPED = "deployment stopped";
/** A stop whose reason the service keeps once STOPPED (not the generic "stopped by its creator"). */
export const keepsStopReason = (reason: string | null) => isIdleReason(reason) || (reason !== null && (reason.startsWith(SCALED_DOWN) || reason.startsWith(DEPLOYMENT_STOPPED)));

/**
 * Whether a HEALTHY service with --idle-stop has answered no request for that long: its clock is
 * the last request the gateway reported, or when it last became HEALTHY. A renewal under way is
 * left to finish first, and so is a request still in flight (`inFlight`, as the gateway reports
 * them): a stream longer than the idle time is not cut.
 */
export function idleFor(row: ServiceRow, now: number, inFlight = 0): string | undefined {
  if (row.idleStopSeconds === null || row.status !== "HEALTHY" || row.successor || inFlight > 0) return undefined;
  const since = Date.parse(row.lastRequestAt ?? row.updatedAt);
  return now - since >= row.idleStopSeconds * 1000 ? idleReason(row.idleStopSeconds) : undefined;
}
