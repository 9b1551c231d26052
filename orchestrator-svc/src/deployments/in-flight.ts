/**
 * Counts not confirmed for this long are taken as 0: the gateway says its counts again every 2 s
 * while any is above 0, so silence means it holds none (or it restarted, and with it its requests).
 */
export const IN_FLIGHT_STALE_MS = 10_000;

/**
 * Requests in flight per service, as the gateway last reported them (POST /api/services/activity's
 * `inFlight`): the latest report wins, and a service absent from a report that has counts has 0.
 * Kept in memory: after a restart the gateway's next report (within seconds) fills it again.
 */
export class InFlightCounts {
  private counts = new Map<string, number>();
  private waiting = new Map<string, number>();
  private reportedAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** `waiting`: requests queued in the gateway for each deployment's model (by deployment id), reported with the counts. */
  record(counts: { id: string; count: number }[], at: number, waiting: { deployment: string; count: number }[] = []) {
    this.counts = new Map(counts.filter((entry) => entry.count > 0).map((entry) => [entry.id, entry.count]));
    this.waiting = new Map(waiting.filter((entry) => entry.count > 0).map((entry) => [entry.deployment, entry.count]));
    this.reportedAt = at;
  }

  of(id: string): number {
    return this.fresh() ? (this.counts.get(id) ?? 0) : 0;
  }

  /** Requests waiting in the gateway's queue for the deployment's model (none once the reports stop). */
  waitingFor(deploymentId: string): number {
    return this.fresh() ? (this.waiting.get(deploymentId) ?? 0) : 0;
  }

  private fresh(): boolean {
    return this.reportedAt !== undefined && this.now() - this.reportedAt <= IN_FLIGHT_STALE_MS;
  }

  /** When the last report came (undefined: none since this process started). */
  get lastReportAt(): number | undefined {
    return this.reportedAt;
  }
}
