import type { ServiceRoute } from "@svc/contracts";
import { usableReplicas } from "../replica-choice";

/**
 * Requests the model's services could take now beyond those in flight (`count` per service id):
 * each usable replica's capacity less what it holds, summed. Infinity when any capacity is not
 * known (an outside endpoint, an older orchestrator): such a model is never queued.
 */
export function freeSlots(services: ServiceRoute[], count: (serviceId: string) => number): number {
  let free = 0;
  for (const service of usableReplicas(services)) {
    if (service.capacity === undefined || service.capacity === null) return Number.POSITIVE_INFINITY;
    free += Math.max(0, service.capacity - count(service.id));
  }
  return free;
}

/** Requests the model's usable services take at once, or null when not known. */
export function capacityOf(services: ServiceRoute[]): number | null {
  let total = 0;
  for (const service of usableReplicas(services)) {
    if (service.capacity === undefined || service.capacity === null) return null;
    total += service.capacity;
  }
  return total;
}
