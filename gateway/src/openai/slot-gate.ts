import type { ServiceRoute, ServiceTier } from "@svc/contracts";
import type { Caller } from "./caller";

/**
 * The wait stage, between resolving a model and choosing its replica: a request for a model whose
 * replicas are all busy waits here for its turn. Resolves to nothing when it may go on, or to the
 * refusal to answer (it waited too long, or its key's queue is full); `signal` takes it out at once.
 */
export interface SlotGate {
  wait(repo: string, services: ServiceRoute[], caller: Caller, tier: ServiceTier, signal: AbortSignal): Promise<Response | undefined> | undefined;
}

/** Never waits. */
export const NO_WAIT: SlotGate = { wait: () => undefined };
