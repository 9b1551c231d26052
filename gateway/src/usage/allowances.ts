import { NO_LIMITS, type ApiKey, type KeyAllowance, type UsageCallerKind } from "@svc/contracts";
import type { SpendWindows, WindowSums } from "./store";

const MINUTE_MS = 60_000;

/** The windows the limits count in at `now` (the day and month in UTC), and 429s counted since `since`. */
export function spendWindows(now: Date, since: Date): SpendWindows {
  return {
    end: now,
    minute: new Date(now.getTime() - MINUTE_MS),
    day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())),
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    refusedSince: since,
  };
}

const KIND_ORDER: UsageCallerKind[] = ["key", "removed", "token", "anonymous"];

/**
 * Every key that exists now (with nothing spent, too) and every other caller with usage, each
 * with its sums against its limits. A removed key keeps its name from the usage rows and has no limits.
 */
export function keyAllowances(sums: WindowSums[], keys: ApiKey[]): KeyAllowance[] {
  const entries = new Map<string, KeyAllowance>();
  for (const key of keys) entries.set(`id:${key.id}`, emptyAllowance(key.name, key.id, "key", key.limits));
  for (const row of sums) {
    const id = row.keyId === null ? `caller:${row.caller}` : `id:${row.keyId}`;
    let entry = entries.get(id);
    if (!entry) {
      const kind = row.keyId !== null ? "removed" : row.caller === "svc-token" ? "token" : "anonymous";
      entry = emptyAllowance(row.caller, row.keyId, kind, NO_LIMITS);
      entries.set(id, entry);
    }
    add(entry.lastMinute, row.minuteRequests, row.minuteTokens);
    add(entry.today, row.dayRequests, row.dayTokens);
    add(entry.month, row.monthRequests, row.monthTokens);
    entry.refused429 += row.refused429;
  }
  return [...entries.values()].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
}

function emptyAllowance(name: string, keyId: string | null, kind: UsageCallerKind, limits: ApiKey["limits"]): KeyAllowance {
  return { name, keyId, kind, limits: { ...limits }, lastMinute: spent(), today: spent(), month: spent(), refused429: 0 };
}

const spent = () => ({ requests: 0, tokens: 0 });

function add(into: { requests: number; tokens: number }, requests: number, tokens: number) {
  into.requests += requests;
  into.tokens += tokens;
}
