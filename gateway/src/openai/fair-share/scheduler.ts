import { SERVICE_TIERS, type ServiceTier } from "@svc/contracts";

interface Entry<T> {
  item: T;
  /** Arrival order: equal turns go to the request that came first. */
  seq: number;
}

interface Flow<T> {
  entries: Entry<T>[];
  /** Its next turn, in virtual time: each request taken moves it on by 1 / weight. */
  pass: number;
  weight: number;
}

/**
 * One tier's requests, one queue (flow) per key, taken in turn by stride scheduling: the flow with
 * the earliest next turn goes, and its turn moves on by 1 / its weight, so a key of weight 2 gets
 * two turns to another's one, and a key with 64 waiting gets one turn to a key with 1 waiting's one.
 * A key that had nothing waiting joins at the current turn (virtual time): no credit is banked
 * while it was away, and none is lost by leaving and coming back.
 */
class TakingTurns<T> {
  private readonly flows = new Map<string, Flow<T>>();
  private virtualTime = 0;
  size = 0;

  add(flowId: string, weight: number, entry: Entry<T>): void {
    let flow = this.flows.get(flowId);
    if (!flow) this.flows.set(flowId, (flow = { entries: [], pass: this.virtualTime, weight }));
    flow.weight = weight;
    if (flow.entries.length === 0) flow.pass = Math.max(flow.pass, this.virtualTime);
    flow.entries.push(entry);
    this.size++;
  }

  /** The first request of the flow whose turn it is, taken out; undefined when none waits. */
  take(): T | undefined {
    let next: Flow<T> | undefined;
    for (const [id, flow] of this.flows) {
      if (flow.entries.length === 0) {
        // Nothing waiting and no turn owed: forgotten (it would join at the current turn anyway).
        if (flow.pass <= this.virtualTime) this.flows.delete(id);
        continue;
      }
      if (!next || flow.pass < next.pass || (flow.pass === next.pass && flow.entries[0]!.seq < next.entries[0]!.seq)) next = flow;
    }
    if (!next) return undefined;
    this.virtualTime = next.pass;
    next.pass += 1 / next.weight;
    this.size--;
    return next.entries.shift()!.item;
  }

  remove(flowId: string, item: T): boolean {
    const entries = this.flows.get(flowId)?.entries;
    const at = entries?.findIndex((entry) => entry.item === item) ?? -1;
    if (at < 0) return false;
    entries!.splice(at, 1);
    this.size--;
    return true;
  }

  waitingOf(flowId: string): number {
    return this.flows.get(flowId)?.entries.length ?? 0;
  }

  /** Flows with entries: id, weight, and their items in arrival order. */
  *waiting(): Generator<{ flowId: string; weight: number; items: T[] }> {
    for (const [flowId, flow] of this.flows) if (flow.entries.length > 0) yield { flowId, weight: flow.weight, items: flow.entries.map((entry) => entry.item) };
  }
}

/**
 * The order requests waiting for one model are taken in: tier first (priority, then default, then
 * flex: a lower tier waits while a higher one has any), then in turn across keys (TakingTurns).
 */
export class FairScheduler<T> {
  private readonly tiers = new Map<ServiceTier, TakingTurns<T>>(SERVICE_TIERS.map((tier) => [tier, new TakingTurns<T>()]));
  private arrivals = 0;

  get size(): number {
    let size = 0;
    for (const tier of this.tiers.values()) size += tier.size;
    return size;
  }

  add(tier: ServiceTier, flowId: string, weight: number, item: T): void {
    this.tiers.get(tier)!.add(flowId, weight, { item, seq: this.arrivals++ });
  }

  /** The next request to go, taken out; undefined when none waits. */
  take(): T | undefined {
    for (const tier of this.tiers.values()) {
      if (tier.size > 0) return tier.take();
    }
    return undefined;
  }

  /** Takes `item` out (its caller went away, or it waited too long); false when it was not waiting. */
  remove(tier: ServiceTier, flowId: string, item: T): boolean {
    return this.tiers.get(tier)!.remove(flowId, item);
  }

  /** Requests of `flowId` waiting, in every tier. */
  waitingOf(flowId: string): number {
    let count = 0;
    for (const tier of this.tiers.values()) count += tier.waitingOf(flowId);
    return count;
  }

  /** Who waits, highest tier first: each flow's weight and items in arrival order. */
  *waiting(): Generator<{ tier: ServiceTier; flowId: string; weight: number; items: T[] }> {
    for (const [tier, turns] of this.tiers) for (const flow of turns.waiting()) yield { tier, ...flow };
  }
}
