import type { ServiceRoute } from "@svc/contracts";
import { usableReplicas } from "../replica-choice";

/**
 * Requests let go to a replica beyond its capacity: one, ready to start the moment a slot frees.
 * The gateway learns of a request's end a moment after it (the runtime's record of it, a poll, then
 * the next request's way to the replica): with nothing waiting there, each slot idled that long
 * between two requests, 15–25% of the throughput on the tiny model's 64-token chats
 * (docs/benchmarks.md, "Fair share"). A key arriving late waits behind at most this many per replica.
 */
export const READY_PER_REPLICA = 1;

const known = (service: ServiceRoute): service is ServiceRoute & { capacity: number } => service.capacity !== undefined && service.capacity !== null;

/**
 * Requests the model's services could take now beyond those in flight (`count` per service id):
 * each usable replica's capacity (and READY_PER_REPLICA) less what it holds, summed. Infinity when
 * any capacity is not known (an outside endpoint, an older orchestrator): such a model never waits.
 */
export function freeSlots(services: ServiceRoute[], count: (serviceId: string) => number): number {
  let free = 0;
  for (const service of usableReplicas(services)) {
    if (!known(service)) return Number.POSITIVE_INFINITY;
    free += Math.max(0, service.capacity + READY_PER_REPLICA - count(service.id));
  }
  return free;
}

/** Requests the model's usable services take at once, or null when not known. */
export function capacityOf(services: ServiceRoute[]): number | null {
  let total = 0;
  for (const service of usableReplicas(services)) {
    if (!known(service)) return null;
    total += service.capacity;
  }
  return total;
}
