import { getTableColumns, sql } from "drizzle-orm";
import type { UsageGrouping } from "@svc/contracts";
import type { GatewayDb } from "../db/connection";
import { usage } from "../db/schema";
import type { V1Outcome } from "../openai/outcome";

export const callerName = (caller: V1Outcome["caller"]) => (caller.kind === "key" ? caller.name : caller.kind === "token" ? "svc-token" : "anonymous");

const GROUP_COLUMN = { key: "caller", model: "coalesce(model, '(none)')", service: "coalesce(service_name, '(none)')" } as const;

/** A row's prompt + completion tokens (either may be unknown). */
const TOKENS = "coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)";

/** Where the windows a key's limits count in start, since when 429s are counted, and where they all end. */
export interface SpendWindows {
  end: Date;
  minute: Date;
  day: Date;
  month: Date;
  refusedSince: Date;
}

/** One key's (or caller's) sums over SpendWindows. */
export interface WindowSums {
  keyId: string | null;
  caller: string;
  minuteRequests: number;
  minuteTokens: number;
  dayRequests: number;
  dayTokens: number;
  monthRequests: number;
  monthTokens: number;
  refused429: number;
}

export interface Counts {
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
}

/** How long a recorded request waits to be written with the others recorded meanwhile. */
const WRITE_AFTER_MS = 20;

/** The columns of a usage row as `rowValues` gives them. */
const WRITTEN = ["at", "keyId", "caller", "endpoint", "model", "serviceId", "serviceName", "status", "end", "latencyMs", "promptTokens", "completionTokens"] as const;

/** An outcome's row, in WRITTEN's order. */
const rowValues = (outcome: V1Outcome) => [
  outcome.at.toISOString(),
  outcome.caller.kind === "key" ? outcome.caller.id : null,
  callerName(outcome.caller),
  outcome.endpoint,
  outcome.model,
  outcome.serviceId,
  outcome.serviceName,
  outcome.status,
  outcome.end,
  outcome.latencyMs,
  outcome.usage?.promptTokens ?? null,
  outcome.usage?.completionTokens ?? null,
];

/**
 * Every /v1 request, kept `retentionDays` in the gateway's database. Rows are written together, one
 * transaction for what was recorded within WRITE_AFTER_MS (a commit each cost the gateway's one thread
 * ~50 µs, as much as the rest of a streamed request's own work), and always before anything is read.
 */
export class UsageStore {
  /**
   * Writes rows in one transaction. One row per /v1 request, through a statement of bun:sqlite's own
   * prepared once, its values bound by position (drizzle's prepared insert named and mapped each
   * value: ~4 of ~12 µs a row).
   */
  private readonly insertAll: (rows: V1Outcome[]) => void;
  private waiting: V1Outcome[] = [];
  private readonly write = () => {
    try {
      this.flush();
    } catch (error) {
      console.error("[error] usage rows could not be written:", error);
    }
  };

  constructor(
    private readonly db: GatewayDb,
    readonly retentionDays: number,
  ) {
    const columns = getTableColumns(usage);
    const names = WRITTEN.map((field) => `"${columns[field].name}"`).join(", ");
    const insert = db.$client.prepare(`insert into usage (${names}) values (${WRITTEN.map(() => "?").join(", ")})`);
    this.insertAll = db.$client.transaction((rows: V1Outcome[]) => {
      for (const outcome of rows) insert.run(...rowValues(outcome));
    });
  }

  record(outcome: V1Outcome): void {
    if (this.waiting.push(outcome) === 1) setTimeout(this.write, WRITE_AFTER_MS);
  }

  /** Writes the rows recorded so far (done before every read, and when the gateway stops). */
  flush(): void {
    if (this.waiting.length === 0) return;
    const rows = this.waiting;
    this.waiting = [];
    this.insertAll(rows);
  }

  /** Deletes what is older than the retention period; how many rows went. */
  prune(now = new Date()): number {
    this.flush();
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    return this.db.$client.query("delete from usage where at < ?").run(cutoff).changes;
  }

  private counts = `count(*) as requests, coalesce(sum(case when status >= 400 then 1 else 0 end), 0) as errors,
    coalesce(sum(prompt_tokens), 0) as promptTokens, coalesce(sum(completion_tokens), 0) as completionTokens`;

  totals(since: Date): Counts {
    this.flush();
    return this.db.$client.query(`select ${this.counts} from usage where at >= ?`).get(since.toISOString()) as Counts;
  }

  groups(since: Date, by: UsageGrouping): Array<Counts & { group: string; avgLatencyMs: number }> {
    this.flush();
    return this.db.$client
      .query(`select ${GROUP_COLUMN[by]} as "group", ${this.counts}, avg(latency_ms) as avgLatencyMs from usage where at >= ? group by 1 order by requests desc, 1`)
      .all(since.toISOString()) as Array<Counts & { group: string; avgLatencyMs: number }>;
  }

  days(since: Date): Array<Counts & { day: string }> {
    this.flush();
    return this.db.$client.query(`select substr(at, 1, 10) as day, ${this.counts} from usage where at >= ? group by 1 order by 1`).all(since.toISOString()) as Array<Counts & { day: string }>;
  }

  /**
   * Requests (429s apart) and tokens per key and caller since each of `windows`' starts up to
   * `windows.end`, and the 429s since `windows.refusedSince`: one pass over the rows since the earliest start.
   */
  windowSums(windows: SpendWindows): WindowSums[] {
    this.flush();
    const starts = [windows.minute, windows.day, windows.month, windows.refusedSince].map((at) => at.toISOString());
    const spent = (n: number, name: string) =>
      `coalesce(sum(at >= ?${n} and status != 429), 0) as ${name}Requests, coalesce(sum(case when at >= ?${n} then ${TOKENS} end), 0) as ${name}Tokens`;
    return this.db.$client
      .query(
        `select key_id as keyId, caller, ${spent(1, "minute")}, ${spent(2, "day")}, ${spent(3, "month")}, coalesce(sum(at >= ?4 and status = 429), 0) as refused429
         from usage where at >= ?5 and at <= ?6 group by key_id, caller`,
      )
      .all(...starts, starts.reduce((a, b) => (a < b ? a : b)), windows.end.toISOString()) as WindowSums[];
  }

  /** Requests (429s apart) and tokens per UTC hour and caller from `from` up to `end`, in order. */
  hours(from: Date, end: Date): Array<{ hour: string; key: string; requests: number; tokens: number }> {
    this.flush();
    return this.db.$client
      .query(
        `select substr(at, 1, 13) || ':00:00.000Z' as hour, caller as key, coalesce(sum(status != 429), 0) as requests, coalesce(sum(${TOKENS}), 0) as tokens
         from usage where at >= ? and at <= ? group by 1, 2 order by 1, 2`,
      )
      .all(from.toISOString(), end.toISOString()) as Array<{ hour: string; key: string; requests: number; tokens: number }>;
  }

  /** Rows since `since`, newest last (tests and the UI's recent list). */
  rows(since: Date) {
    this.flush();
    return this.db.select().from(usage).where(sql`${usage.at} >= ${since.toISOString()}`).all();
  }
}
