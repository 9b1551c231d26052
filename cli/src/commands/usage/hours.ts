import { USAGE_WINDOW_HOURS, type UsageReport } from "@svc/contracts";
import { formatParameterCount as compact } from "@svc/contracts/format-bytes";
import { sparkline } from "../../output/bar";

const HOUR_MS = 3_600_000;
/** Hours a character stands for: a week in 42 characters. */
const HOURS_A_CHARACTER = { day: 1, week: 4 } as const;

/** Tokens per hour per caller as a line of characters each, on one scale for all (the busiest first). */
export function hourLines(report: UsageReport): string[] {
  const { window, from, hours } = report.hourly;
  const step = HOURS_A_CHARACTER[window];
  const columns = USAGE_WINDOW_HOURS[window] / step;
  const start = Date.parse(from);
  const series = new Map<string, number[]>();
  for (const hour of hours) {
    if (hour.tokens <= 0) continue;
    const column = Math.floor((Date.parse(hour.hour) - start) / HOUR_MS / step);
    if (column < 0 || column >= columns) continue;
    const values = series.get(hour.key) ?? series.set(hour.key, new Array<number>(columns).fill(0)).get(hour.key)!;
    values[column] += hour.tokens;
  }
  const span = window === "day" ? "the last day" : "the last week, a character every 4 hours";
  if (series.size === 0) return ["", `No tokens through /v1 in ${span}.`];
  const callers = [...series.entries()].map(([key, values]) => ({ key, values, total: values.reduce((a, b) => a + b, 0) })).sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  const max = Math.max(...callers.flatMap((caller) => caller.values));
  const width = Math.max(...callers.map((caller) => caller.key.length));
  return [
    "",
    `Tokens per hour over ${span} (UTC, from ${from.slice(0, 16).replace("T", " ")}; █ = ${compact(max)} tokens):`,
    ...callers.map((caller) => `${caller.key.padEnd(width)}  ${sparkline(caller.values, max)}  ${compact(caller.total)}`),
  ];
}
