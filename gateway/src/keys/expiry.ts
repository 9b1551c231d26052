const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/** `30d`, `12h`, `90m`, `2w` → milliseconds; undefined for anything else. */
export function durationMs(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(text);
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : undefined;
}

/** When a key given `expires` stops working: a duration from `now`, or a date(-time); undefined when it does not parse. */
export function expiryOf(expires: string, now: Date): Date | undefined {
  const ms = durationMs(expires);
  const at = ms !== undefined ? new Date(now.getTime() + ms) : new Date(expires);
  // Past year 9999 a date has no ISO 8601 form of four digits: no such key.
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() > 9999 ? undefined : at;
}
