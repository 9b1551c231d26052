import type { ServiceRoute, ServiceTier } from "@svc/contracts";
import type { Caller } from "./caller";

/**
 * What a wait ends with: undefined to go on at once (or after the caller went away: the request
 * checks its signal), the model's services as they are now (it waited: a replica may have been
 * added meanwhile), or the refusal to answer.
 */
export type SlotWait = Promise<ServiceRoute[] | Response | undefined> | undefined;

/**
 * The wait stage, between resolving a model and choosing its replica: a request for a model whose
 * replicas are all busy waits here for its turn (fair-share/gate). Resolves to nothing when it may
 * go on, or to the refusal to answer (it waited too long, or its key's queue is full); `signal`
 * takes it out at once. A request let go must begin on a replica in the same turn of the event loop.
 */
export interface SlotGate {
  wait(repo: string, services: ServiceRoute[], caller: Caller, tier: ServiceTier, signal: AbortSignal): SlotWait;
}

/** Never waits. */
export const NO_WAIT: SlotGate = { wait: () => undefined };
