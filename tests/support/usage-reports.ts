import type { UsageReport, UsageSpent } from "@svc/contracts";

export const spent = (requests: number, tokens: number): UsageSpent => ({ requests, tokens });

/** A usage report with nothing in it at 2026-03-15 10:30 UTC (since 7 days), with `fields` changed: what a page or the CLI renders. */
export function usageReportWith(fields: Partial<UsageReport>): UsageReport {
  return {
    since: "2026-03-08T10:30:00.000Z",
    by: "key",
    retentionDays: 90,
    totals: { requests: 0, errors: 0, promptTokens: 0, completionTokens: 0 },
    groups: [],
    days: [],
    services: [],
    at: "2026-03-15T10:30:00.000Z",
    keys: [],
    hourly: { window: "day", from: "2026-03-14T11:00:00.000Z", hours: [] },
    ...fields,
  };
}
