import { USAGE_WINDOW_HOURS, type HourlyUsage, type UsageHourlyWindow } from "@svc/contracts";
import type { UsageStore } from "./store";

const HOUR_MS = 3_600_000;

/** The start of the first hour of `window` up to `now`'s hour (UTC). */
export function hourlyFrom(now: Date, window: UsageHourlyWindow): Date {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return new Date(currentHour - (USAGE_WINDOW_HOURS[window] - 1) * HOUR_MS);
}

/** Tokens and requests per hour and caller over the last day or week. */
export function hourlyUsage(store: UsageStore, now: Date, window: UsageHourlyWindow): HourlyUsage {
  const from = hourlyFrom(now, window);
  return { window, from: from.toISOString(), hours: store.hours(from, now) };
}
