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
  private reportedAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  record(counts: { id: string; count: number }[], at: number) {
    this.counts = new Map(counts.filter((entry) => entry.count > 0).map((entry) => [entry.id, entry.count]));
    this.reportedAt = at;
  }

  of(id: string): number {
    if (this.reportedAt === undefined || this.now() - this.reportedAt > IN_FLIGHT_STALE_MS) return 0;
    return this.counts.get(id) ?? 0;
  }

  /** When the last report came (undefined: none since this process started). */
  get lastReportAt(): number | undefined {
    return this.reportedAt;
  }
}
