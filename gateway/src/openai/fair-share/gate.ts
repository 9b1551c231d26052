import type { ServiceRoute, ServiceTier } from "@svc/contracts";
import type { FairShareSettings } from "@svc/platform";
import type { LeastInFlight } from "../balancer";
import type { Caller } from "../caller";
import { resolveModel } from "../resolve";
import type { SlotGate, SlotWait } from "../slot-gate";
import { capacityOf, freeSlots } from "./capacity";
import { flowOf } from "./flow";
import { ModelQueue, type Waiter } from "./model-queue";
import { queueRefusal } from "./refusal";

/** How often the services of models with requests waiting are read again while any waits: a replica added (or one that left) changes how many go. */
const REFRESH_MS = 1000;

export interface FairShareDeps {
  /** Requests in flight per service (/v1 and /proxy): a slot frees when one ends. */
  balancer: LeastInFlight;
  settings: FairShareSettings;
  /** The live services (the catalog), read every REFRESH_MS while a request waits. */
  routes?: () => Promise<ServiceRoute[]>;
  /** Told whenever the requests waiting change (the activity report carries them to the scaler). */
  changed?: () => void;
}

/**
 * Fair share of a saturated model: while every usable replica of a model holds its capacity in
 * flight, a /v1 request for it waits here, in its key's queue (ModelQueue, FairScheduler), until a
 * request on one of the model's services ends (or a replica is added) and it is its turn. Bounded:
 * past the queue time limit, or with its key's queue full, it is refused with 429 and Retry-After;
 * a caller that goes away leaves at once. Models whose capacity is not known (outside endpoints)
 * never wait; nor does anything while fair share is off.
 */
export class FairShareGate implements SlotGate {
  private readonly queues = new Map<string, ModelQueue>();
  private refreshing: Timer | undefined;

  constructor(private readonly deps: FairShareDeps) {
    deps.balancer.listen((serviceId, ended) => {
      if (ended) this.freed(serviceId);
    });
  }

  get settings(): FairShareSettings {
    return this.deps.settings;
  }

  /** Every model that had to queue a request since the gateway started. */
  models(): Iterable<ModelQueue> {
    return this.queues.values();
  }

  wait(repo: string, services: ServiceRoute[], caller: Caller, tier: ServiceTier, signal: AbortSignal): SlotWait {
    const { settings } = this.deps;
    if (!settings.enabled || signal.aborted) return undefined;
    let queue = this.queues.get(repo);
    if ((!queue || queue.waiting.size === 0) && this.free(services, queue) > 0) return undefined;
    if (!queue) this.queues.set(repo, (queue = new ModelQueue(repo, services)));
    queue.services = services;
    const flow = flowOf(caller);
    if (queue.waiting.waitingOf(flow.id) >= settings.perKey) {
      queue.refused.full++;
      return Promise.resolve(queueRefusal.keyQueueFull(repo, flow.name, settings.perKey, queue.retryAfterSeconds(settings.queueSeconds)));
    }
    const model = queue;
    return new Promise((resolve) => {
      const expire = setTimeout(() => this.expire(model, waiter), settings.queueSeconds * 1000);
      const abort = () => {
        if (model.waiting.remove(tier, flow.id, waiter)) waiter.leave(undefined);
      };
      const waiter: Waiter = {
        flow,
        tier,
        since: performance.now(),
        leave: (result) => {
          clearTimeout(expire);
          signal.removeEventListener("abort", abort);
          resolve(result);
          this.deps.changed?.();
        },
      };
      signal.addEventListener("abort", abort, { once: true });
      model.waiting.add(tier, flow.id, flow.weight, waiter);
      this.deps.changed?.();
      this.keepRefreshing();
      this.pump(model);
    });
  }

  /** Whether requests wait for a slot on the service (by id): its requests' ends are wanted at once. */
  waitsFor(serviceId: string): boolean {
    for (const queue of this.queues.values()) {
      if (queue.waiting.size > 0 && queue.services.some((service) => service.id === serviceId)) return true;
    }
    return false;
  }

  /** Requests waiting per deployment (by id), for the scaler. */
  waitingByDeployment(): Map<string, number> {
    const waiting = new Map<string, number>();
    for (const queue of this.queues.values()) {
      if (queue.waiting.size === 0) continue;
      for (const [id, count] of queue.waitingByDeployment()) waiting.set(id, (waiting.get(id) ?? 0) + count);
    }
    return waiting;
  }

  private free(services: ServiceRoute[], queue: ModelQueue | undefined): number {
    return freeSlots(services, (id) => this.deps.balancer.count(id)) - (queue?.reserved ?? 0);
  }

  /** Lets go as many waiting requests as the model has free slots, in their turn. */
  private pump(queue: ModelQueue): void {
    let free = this.free(queue.services, queue);
    let granted = 0;
    for (; free > 0; free--) {
      const waiter = queue.waiting.take();
      if (!waiter) break;
      queue.noteWait(performance.now() - waiter.since);
      granted++;
      waiter.leave(queue.services);
    }
    if (granted === 0) return;
    queue.reserved += granted;
    // The requests let go resume in microtasks and begin on a replica before any timer runs: from then on the balancer counts them.
    setImmediate(() => {
      queue.reserved -= granted;
      if (queue.waiting.size > 0) this.pump(queue);
    });
  }

  private freed(serviceId: string): void {
    for (const queue of this.queues.values()) {
      if (queue.waiting.size > 0 && queue.services.some((service) => service.id === serviceId)) this.pump(queue);
    }
  }

  private expire(queue: ModelQueue, waiter: Waiter): void {
    if (!queue.waiting.remove(waiter.tier, waiter.flow.id, waiter)) return;
    const { queueSeconds } = this.deps.settings;
    queue.refused.timeout++;
    queue.noteWait(queueSeconds * 1000);
    waiter.leave(queueRefusal.waitedTooLong(queue.model, capacityOf(queue.services), queueSeconds, queue.retryAfterSeconds(queueSeconds)));
  }

  private keepRefreshing(): void {
    if (this.refreshing || !this.deps.routes) return;
    this.refreshing = setInterval(() => void this.refresh(), REFRESH_MS).unref();
  }

  /** Reads the services of every model with requests waiting again: a replica added takes from the queue at once, one that left no longer counts. */
  private async refresh(): Promise<void> {
    const waiting = [...this.queues.values()].filter((queue) => queue.waiting.size > 0);
    if (waiting.length === 0) {
      clearInterval(this.refreshing);
      this.refreshing = undefined;
      return;
    }
    const routes = await this.deps.routes!().catch(() => undefined);
    if (!routes) return;
    for (const queue of waiting) {
      const resolved = resolveModel(queue.model, routes);
      if (resolved.kind !== "ready") continue;
      queue.services = resolved.services;
      this.pump(queue);
    }
  }
}
