const DAY_MS = 86_400_000;

/** The start of the UTC day `ms` is in. */
export const utcDayStart = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
export const nextUtcDay = (ms: number) => utcDayStart(ms) + DAY_MS;

/** The start of the calendar month (UTC) `ms` is in. */
export function utcMonthStart(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

export function nextUtcMonth(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
