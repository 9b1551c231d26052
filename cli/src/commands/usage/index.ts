import type { CAC } from "cac";
import { USAGE_GROUPINGS, USAGE_HOURLY_WINDOWS, type UsageGrouping, type UsageHourlyWindow } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { hourLines } from "./hours";
import { allowanceLines } from "./keys";

const hours = (seconds: number) => (seconds / 3600).toFixed(2);

/** `svc usage [--since 7d] [--by key|model|service] [--hours day|week] [--json]`: what /v1 served, each key against its limits. */
export function registerUsage(cli: CAC, ctx: CliContext) {
  cli
    .command("usage", "Requests and tokens through /v1 per key, model or service; each key against its limits and budgets; tokens per hour; the services' running time")
    .option("--since <period>", "How far back: 7d (default), 12h, 90m, 2w")
    .option("--by <grouping>", "key (default), model or service")
    .option("--hours <window>", "Tokens per hour over the last day (default) or week")
    .option("--json", "Print JSON")
    .action(async (flags: { since?: string | number; by?: string; hours?: string; json?: boolean }) => {
      const since = flags.since === undefined ? undefined : String(flags.since);
      if (since !== undefined && !/^[1-9][0-9]{0,5}[mhdw]$/.test(since)) throw new UsageError(`--since ${since}: give a period such as 7d, 12h, 90m or 2w.`);
      if (flags.by !== undefined && !(USAGE_GROUPINGS as readonly string[]).includes(flags.by)) throw new UsageError(`--by ${flags.by}: use one of ${USAGE_GROUPINGS.join(", ")}.`);
      if (flags.hours !== undefined && !(USAGE_HOURLY_WINDOWS as readonly string[]).includes(flags.hours)) throw new UsageError(`--hours ${flags.hours}: use one of ${USAGE_HOURLY_WINDOWS.join(", ")}.`);
      const report = await ctx.client().usage.report({
        ...(since ? { since } : {}),
        ...(flags.by ? { by: flags.by as UsageGrouping } : {}),
        ...(flags.hours ? { hours: flags.hours as UsageHourlyWindow } : {}),
      });
      ctx.emit(report, Boolean(flags.json), () => {
        const lines = [`Since ${report.since} (kept ${report.retentionDays} days):`];
        const rows = report.groups.map((g) => [g.group, g.requests, g.errors, g.promptTokens, g.completionTokens, g.promptTokens + g.completionTokens, Math.round(g.avgLatencyMs)]);
        const t = report.totals;
        rows.push(["total", t.requests, t.errors, t.promptTokens, t.completionTokens, t.promptTokens + t.completionTokens, ""]);
        lines.push(formatTable([report.by, "requests", "errors", "prompt tokens", "completion tokens", "total tokens", "avg ms"], rows));
        lines.push(...allowanceLines(report), ...hourLines(report));
        if (report.services.length > 0) {
          lines.push("", formatTable(["service", "model", "profile", "status", "running h", "gpu h"], report.services.map((s) => [s.name, s.model, s.profile, s.status, hours(s.runningSeconds), s.gpuHours === null ? "-" : s.gpuHours])));
        }
        return lines.join("\n");
      });
    });
}
