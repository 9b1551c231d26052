import type { GatewayDb } from "../../db/connection";
import type { RecentRequest } from "./key-counters";
import { MINUTE_MS } from "./token-bucket";
import { utcDayStart, utcMonthStart } from "./utc-periods";

/** What the usage table says each key used: the tokens of this UTC day and calendar month, and its requests of the last minute. */
export interface RecordedUsage {
  today: Map<string, number>;
  thisMonth: Map<string, number>;
  lastMinute: Map<string, RecentRequest[]>;
}

const TOKENS = "coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)";

/**
 * Reads what keys spent from the usage rows, so that limits and budgets hold across a restart of
 * svc. The month's budget reads a month of rows: it needs usage kept at least 31 days
 * (SVC_USAGE_RETENTION_DAYS; the gateway warns at start when it is shorter and a key has one).
 */
export function readRecordedUsage(db: GatewayDb, now: number): RecordedUsage {
  const sums = (since: number) =>
    new Map(
      (db.$client.query(`select key_id as keyId, sum(${TOKENS}) as tokens from usage where key_id is not null and at >= ? group by key_id`).all(new Date(since).toISOString()) as Array<{ keyId: string; tokens: number }>).map(
        (row) => [row.keyId, row.tokens],
      ),
    );
  const lastMinute = new Map<string, RecentRequest[]>();
  const rows = db.$client
    .query(`select key_id as keyId, at, status, ${TOKENS} as tokens from usage where key_id is not null and at >= ? order by at`)
    .all(new Date(now - MINUTE_MS).toISOString()) as Array<{ keyId: string; at: string; status: number; tokens: number }>;
  for (const row of rows) {
    const recent = lastMinute.get(row.keyId) ?? [];
    // A request refused with 429 took none of the key's requests a minute.
    recent.push({ at: Date.parse(row.at), tokens: row.tokens, counted: row.status !== 429 });
    lastMinute.set(row.keyId, recent);
  }
  return { today: sums(utcDayStart(now)), thisMonth: sums(utcMonthStart(now)), lastMinute };
}
