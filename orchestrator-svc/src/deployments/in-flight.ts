/**
 * Requests in flight per service, as the gateway last reported them (POST /api/services/activity's
 * `inFlight`): the latest report wins, and a service absent from a report that has counts has 0.
 * Kept in memory: after a restart the gateway's next report (within seconds) fills it again.
 */
export class InFlightCounts {
  private counts = new Map<string, number>();
  private reportedAt: number | undefined;

  record(counts: { id: string; count: number }[], at: number) {
    this.counts = new Map(counts.filter((entry) => entry.count > 0).map((entry) => [entry.id, entry.count]));
    this.reportedAt = at;
  }

  of(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /** When the last report came (undefined: none since this process started). */
  get lastReportAt(): number | undefined {
    return this.reportedAt;
  }
}
