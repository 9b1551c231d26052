import type { ServiceRoute } from "@svc/contracts";

/**
 * Chooses among the services that serve a model: the one with the fewest requests in flight
 * through this gateway; among equals, the next in turn (round robin per model).
 */
export class LeastInFlight {
  private readonly inFlight = new Map<string, number>();
  private readonly turn = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly listeners: Array<(serviceId: string, ended: boolean) => void> = [];

  /** `listener` is told whenever a count changes: which service, and whether a request ended there (the activity report sends the counts; the fair-share queue takes a freed slot). */
  listen(listener: (serviceId: string, ended: boolean) => void): void {
    this.listeners.push(listener);
  }

  pick(repo: string, services: ServiceRoute[]): ServiceRoute | undefined {
    if (services.length === 0) return undefined;
    const turn = this.turn.get(repo) ?? 0;
    this.turn.set(repo, turn + 1);
    // One service (an outside endpoint, a model served once) is the choice: no copy, sort or count.
    if (services.length === 1) return services[0];
    const ordered = [...services].sort((a, b) => a.id.localeCompare(b.id));
    const fewest = Math.min(...ordered.map((service) => this.count(service.id)));
    const least = ordered.filter((service) => this.count(service.id) === fewest);
    return least[turn % least.length];
  }

  /**
   * Like pick, but among equals the first by name (`web-1` before `web-2`), not the next in turn: a
   * deployment's light load stays on its first replicas, so the others go idle and the scaler can
   * drain them (round robin would keep every replica warm with a trickle of requests).
   */
  packed(services: ServiceRoute[]): ServiceRoute | undefined {
    if (services.length === 0) return undefined;
    const fewest = Math.min(...services.map((service) => this.count(service.id)));
    return services.filter((service) => this.count(service.id) === fewest).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))[0];
  }

  /** Services (by name) with requests in flight, and how many. */
  entries(): Array<[string, number]> {
    return [...this.inFlight.entries()].map(([id, count]) => [this.names.get(id) ?? id, count]);
  }

  /** Services (by id) with requests in flight, and how many. */
  counts(): Map<string, number> {
    return new Map(this.inFlight);
  }

  count(serviceId: string): number {
    return this.inFlight.get(serviceId) ?? 0;
  }

  /** A request starts on the service; call the returned function once, when it is over. */
  begin(serviceId: string, name = serviceId): () => void {
    this.names.set(serviceId, name);
    this.inFlight.set(serviceId, this.count(serviceId) + 1);
    this.changed(serviceId, false);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = this.count(serviceId) - 1;
      if (left > 0) this.inFlight.set(serviceId, left);
      else this.inFlight.delete(serviceId);
      this.changed(serviceId, true);
    };
  }

  private changed(serviceId: string, ended: boolean) {
    for (const listener of this.listeners) listener(serviceId, ended);
  }
}
