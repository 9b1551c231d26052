import type { ServiceRoute, ServiceTier } from "@svc/contracts";
import { FairScheduler } from "./scheduler";
import type { Flow } from "./flow";

/** A request waiting for a slot; `leave` ends its wait with what its wait resolves to (the model's services now, a refusal, or nothing when its caller went away). */
export interface Waiter {
  flow: Flow;
  tier: ServiceTier;
  /** performance.now() when it began to wait. */
  since: number;
  leave(result: ServiceRoute[] | Response | undefined): void;
}

/** Weight of the latest wait in the typical one (an exponential moving average). */
const RECENT = 0.2;

/** One model's queue: who waits for it (FairScheduler), its services as last seen, and what it refused. */
export class ModelQueue {
  readonly waiting = new FairScheduler<Waiter>();
  /**
   * Slots given to requests let go that do not count on a replica yet: they begin there within the
   * same turn of the event loop, and are let go of here just after it.
   */
  reserved = 0;
  readonly refused = { timeout: 0, full: 0 };
  private typicalWaitMs = 0;

  constructor(
    readonly model: string,
    public services: ServiceRoute[],
  ) {}

  noteWait(ms: number): void {
    this.typicalWaitMs = this.typicalWaitMs === 0 ? ms : this.typicalWaitMs * (1 - RECENT) + ms * RECENT;
  }

  get typicalWaitSeconds(): number {
    return Math.round(this.typicalWaitMs) / 1000;
  }

  /** What a refusal's Retry-After says: about how long requests waited lately, 1 s at least and the queue limit at most. */
  retryAfterSeconds(limitSeconds: number): number {
    return Math.min(limitSeconds, Math.max(1, Math.ceil(this.typicalWaitMs / 1000)));
  }

  /** Its waiting requests shared among the deployments that serve the model (by id): load for their scalers. */
  waitingByDeployment(): Array<[string, number]> {
    const size = this.waiting.size;
    const ids = [...new Set(this.services.flatMap((service) => (service.deployment ? [service.deployment.id] : [])))];
    return ids.map((id, i) => [id, Math.floor(size / ids.length) + (i < size % ids.length ? 1 : 0)]);
  }
}
