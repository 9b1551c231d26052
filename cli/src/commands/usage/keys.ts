import type { KeyAllowance, UsageReport } from "@svc/contracts";
import { formatParameterCount as compact } from "@svc/contracts/format-bytes";
import { textBar } from "../../output/bar";
import { formatTable } from "../../output/table";

const BAR_WIDTH = 10;

/** What was spent, against the limit when there is one: `3/60 5%`; a budget with a bar, `[###-------] 25% 2.50K/10.0K`. */
export function spentAgainst(used: number, limit: number | null, bar = false): string {
  if (limit === null) return compact(used);
  const share = `${Math.round((used / limit) * 100)}%`;
  const amounts = `${compact(used)}/${compact(limit)}`;
  return bar ? `${textBar(used / limit, BAR_WIDTH)} ${share} ${amounts}` : `${amounts} ${share}`;
}

const nameOf = (key: KeyAllowance) => (key.kind === "removed" ? `${key.name} (removed)` : key.name);

/** Each key against its limits: the last minute, today and this month (UTC), and its 429s over the report's period. */
export function allowanceLines(report: UsageReport): string[] {
  if (report.keys.length === 0) return [];
  const rows = report.keys.map((k) => [
    nameOf(k),
    spentAgainst(k.lastMinute.requests, k.limits.requestsPerMinute),
    spentAgainst(k.lastMinute.tokens, k.limits.tokensPerMinute),
    spentAgainst(k.today.tokens, k.limits.dailyTokens, true),
    spentAgainst(k.month.tokens, k.limits.monthlyTokens, true),
    k.limits.maxParallel ?? "-",
    k.refused429,
  ]);
  return [
    "",
    `Keys against their limits at ${report.at.slice(0, 16).replace("T", " ")} UTC (429s since ${report.since.slice(0, 16).replace("T", " ")}):`,
    formatTable(["key", "requests/min", "tokens/min", "tokens today", "tokens this month", "at once", "429s"], rows),
  ];
}
