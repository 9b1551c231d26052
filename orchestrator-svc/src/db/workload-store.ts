import { and, asc, desc, eq, gte, inArray, like, notInArray, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { statusIn } from "@svc/contracts";
import { openDatabase } from "@svc/platform/db";
import { join } from "node:path";
import * as schema from "./schema";
import { fieldsOf, inIdList, NativeRows } from "./native-rows";
import type { ListFilter, ListPosition, WorkloadEvent, WorkloadRow } from "./workload-shapes";

/** The orchestrator's migrations (drizzle-kit generate), applied by every store that opens its file. */
export const MIGRATIONS = join(import.meta.dir, "..", "..", "drizzle");

export type { ListFilter, ListPosition, WorkloadEvent, WorkloadRow } from "./workload-shapes";

/** A workload table and its event table, as schema.ts makes them (workloadColumns, workloadEvents). */
export interface WorkloadTables {
  table: SQLiteTable & { id: SQLiteColumn; name: SQLiteColumn; status: SQLiteColumn; createdAt: SQLiteColumn; updatedAt: SQLiteColumn };
  events: SQLiteTable & { id: SQLiteColumn; ownerId: SQLiteColumn; at: SQLiteColumn; toStatus: SQLiteColumn };
  /** The states the reconciler still follows; every other one is ended. */
  live: readonly string[];
}

/** A LIKE pattern for values starting with `prefix` (its own wildcards dropped). */
export const likePrefix = (prefix: string) => `${prefix.replace(/[%_]/g, "")}%`;

/** Prepared page queries kept at most (one per filter shape and page size); more, and they are made anew. */
const MAX_PAGE_QUERIES = 64;

/** A filter's value as it goes into a condition: itself, or a placeholder bound when the prepared query runs. */
type Bind = <T extends string>(name: string, value: T) => T | Placeholder;

interface EventRow<Status extends string> {
  ownerId: string;
  at: string;
  fromStatus: Status | null;
  toStatus: Status;
  reason: string | null;
}

const toEvent = <Status extends string>(e: EventRow<Status>): WorkloadEvent<Status> => ({ at: e.at, from: e.fromStatus, to: e.toStatus, reason: e.reason });

/**
 * The records of one kind of workload and their event history, in the orchestrator's SQLite file:
 * what services and batch jobs have in common (ServiceStore and BatchStore add their own).
 * `Patch` is what a transition may change besides the status.
 */
export class WorkloadStore<Row extends WorkloadRow<Status>, NewRow extends Pick<Row, "id" | "status" | "createdAt">, Status extends string, Patch extends Partial<Row>> {
  protected readonly db;
  private readonly pageQueries = new Map<string, ReturnType<WorkloadStore<Row, NewRow, Status, Patch>["preparePage"]> | null>();
  private readonly isLive: (status: string) => boolean;

  /** What every API call on a workload and every reconcile tick ask, prepared once (see pageQuery). */
  private readonly prepared;

  constructor(
    file: string,
    protected readonly tables: WorkloadTables,
  ) {
    this.db = openDatabase(file, schema, MIGRATIONS);
    this.isLive = statusIn(tables.live);
    const { table, events } = tables;
    this.prepared = {
      get: this.db.select().from(table).where(eq(table.id, sql.placeholder("id"))).prepare(),
      named: this.db.select().from(table).where(eq(table.name, sql.placeholder("name"))).orderBy(desc(table.createdAt)).prepare(),
      byIds: new NativeRows<Row>(this.db.$client, this.db.select(fieldsOf(table)).from(table).where(inIdList(table.id)), table),
      live: this.db.select().from(table).where(inArray(table.status, tables.live)).prepare(),
      events: this.db.select().from(events).where(eq(events.ownerId, sql.placeholder("id"))).orderBy(asc(events.id)).prepare(),
      eventsOf: new NativeRows<EventRow<Status>>(
        this.db.$client,
        this.db
          .select(fieldsOf(events))
          .from(events)
          .where(inIdList(events.ownerId))
          .orderBy(asc(events.id)),
        events,
      ),
    };
  }

  insert(row: NewRow, reason: string | null) {
    this.db.transaction((tx) => {
      tx.insert(this.tables.table).values(row as never).run();
      tx.insert(this.tables.events).values({ ownerId: row.id, at: row.createdAt, fromStatus: null, toStatus: row.status, reason } as never).run();
    });
  }

  get(id: string): Row | undefined {
    return this.prepared.get.get({ id }) as Row | undefined;
  }

  /** The rows with these ids, by id, in one query (a reconcile tick re-reads all it follows). */
  byIds(ids: string[]): Map<string, Row> {
    const found = new Map<string, Row>();
    if (ids.length === 0) return found;
    for (const row of this.prepared.byIds.all({ ids: JSON.stringify(ids) })) found.set(row.id, row);
    return found;
  }

  /** Rows whose id starts with `prefix` (at most `limit`). */
  byPrefix(prefix: string, limit = 10): Row[] {
    const { table } = this.tables;
    return this.db.select().from(table).where(like(table.id, likePrefix(prefix))).limit(limit).all() as Row[];
  }

  /** Rows with this name, newest first. */
  named(name: string): Row[] {
    return this.prepared.named.all({ name }) as Row[];
  }

  /** Rows matching `filter`, newest first. */
  list(filter: ListFilter<Status> = {}): Row[] {
    const { table } = this.tables;
    return this.db
      .select()
      .from(table)
      .where(and(...this.conditions(filter)))
      .orderBy(desc(table.createdAt))
      .all() as Row[];
  }

  /**
   * One page of the rows matching `filter`: live ones first, then ended ones, each newest first;
   * `after` is where the previous page ended. `next` is where this one ended, when more follow.
   */
  page(filter: ListFilter<Status>, limit: number, after?: ListPosition): { rows: Row[]; next?: ListPosition } {
    // Two queries, live then ended, each walking an index newest first: with 10,000 ended rows
    // a page costs the same as with 10 (one query ordered by "is it live" would sort them all).
    const rows: Array<{ row: Row; ended: 0 | 1 }> = [];
    for (const ended of [0, 1] as const) {
      if (rows.length > limit || (after && after.ended > ended)) continue;
      const from = after !== undefined && after.ended === ended;
      const query = this.pageQuery(filter, ended === 0 ? "live" : "ended", from, limit + 1);
      if (!query) continue;
      const found = query.all({
        status: filter.status,
        endedSince: filter.endedSince?.toISOString(),
        idPattern: filter.idPrefix === undefined ? undefined : likePrefix(filter.idPrefix),
        afterCreatedAt: after?.createdAt,
        afterId: after?.id,
      });
      rows.push(...found.map((row) => ({ row, ended })));
    }
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page.map((entry) => entry.row),
      next: rows.length > limit && last ? { ended: last.ended, createdAt: last.row.createdAt, id: last.row.id } : undefined,
    };
  }

  /**
   * How SQLite runs each part of such a page (its EXPLAIN QUERY PLAN, one line per part, live part
   * first): whether a page walks an index and stops at its last row, however long the history.
   */
  pagePlan(filter: ListFilter<Status>, limit: number, after?: ListPosition): string[] {
    const plans: string[] = [];
    for (const part of ["live", "ended"] as const) {
      const ended = part === "ended" ? 1 : 0;
      if (after && after.ended > ended) continue;
      const query = this.pageQuery(filter, part, after?.ended === ended, limit + 1);
      if (!query) continue;
      const steps = this.db.$client.prepare<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${query.text}`).all();
      plans.push(`${part}: ${steps.map((step) => step.detail).join("; ")}`);
    }
    return plans;
  }

  /**
   * The prepared query of one part of a page, at most `rows` rows, for filters of this shape (which
   * conditions they have, their values bound at each call), or null when that part can have no
   * rows. Drizzle builds each shape once: building a query's SQL costs several times what
   * SQLite takes to run it.
   *
   * The row count is written into the SQL, not bound: SQLite's planner picks its index by it (a
   * LIMIT it cannot see made it walk all 10,000 ended services of a history), and a bound LIMIT
   * makes SQLite prepare the statement again each time it is bound (~9 µs a query).
   */
  private pageQuery(filter: ListFilter<Status>, part: "live" | "ended", from: boolean, rows: number) {
    const shape = [part, filter.status === undefined ? "-" : this.isLive(filter.status), Boolean(filter.all), Boolean(filter.endedSince), Boolean(filter.idPrefix), from, rows].join("|");
    let query = this.pageQueries.get(shape);
    if (query === undefined) {
      const conditions = this.conditions(filter, part, (name) => sql.placeholder(name));
      if (this.pageQueries.size >= MAX_PAGE_QUERIES) this.pageQueries.clear();
      // The recently ended: the few last changed since endedSince, found through updated_at.
      const order = part === "ended" && !filter.all && filter.status === undefined ? "sorted" : "indexed";
      query = conditions ? this.preparePage(conditions, from, rows, order) : null;
      this.pageQueries.set(shape, query);
    }
    return query;
  }

  /**
   * `indexed`: the page walks the index of its order (created_at, id), alone or after the status,
   * from the cursor on (a row value, which SQLite reads as a range of that index), and stops at its
   * last row, without sorting. `sorted`: its rows are found by their conditions, then sorted: the
   * order is written `+created_at`, which no index serves, or the planner would walk the whole
   * history by creation to find a day's few ended services.
   */
  private preparePage(conditions: SQL[], from: boolean, rows: number, order: "indexed" | "sorted") {
    if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`a page of ${rows} rows`);
    const t = this.tables.table;
    const afterCursor = sql`(${t.createdAt}, ${t.id}) < (${sql.placeholder("afterCreatedAt")}, ${sql.placeholder("afterId")})`;
    const query = this.db
      .select(fieldsOf(t))
      .from(t)
      .where(and(...conditions, ...(from ? [afterCursor] : [])))
      .orderBy(desc(order === "indexed" ? t.createdAt : sql`+${t.createdAt}`), desc(t.id))
      // Written into the SQL (drizzle would bind a number): rows is a checked whole number.
      .limit(sql.raw(String(rows)) as unknown as number);
    return new NativeRows<Row>(this.db.$client, query, t);
  }

  /**
   * The conditions of `filter`; with `part`, for its live or its ended rows only (undefined when
   * that part can have none).
   */
  private conditions(filter: ListFilter<Status>): SQL[];
  private conditions(filter: ListFilter<Status>, part: "live" | "ended", bind?: Bind): SQL[] | undefined;
  private conditions(filter: ListFilter<Status>, part?: "live" | "ended", bind: Bind = (_, value) => value): SQL[] | undefined {
    const t = this.tables.table;
    const conditions: SQL[] = [];
    const live = inArray(t.status, this.tables.live);
    if (filter.status) {
      if (part && this.isLive(filter.status) !== (part === "live")) return undefined;
      conditions.push(eq(t.status, bind("status", filter.status)));
    } else if (part === "live") conditions.push(live);
    else if (part === "ended") {
      conditions.push(notInArray(t.status, [...this.tables.live]));
      if (!filter.all) {
        if (!filter.endedSince) return undefined;
        conditions.push(gte(t.updatedAt, bind("endedSince", filter.endedSince.toISOString())));
      }
    } else if (!filter.all) conditions.push(filter.endedSince ? or(live, gte(t.updatedAt, bind("endedSince", filter.endedSince.toISOString())))! : live);
    if (filter.idPrefix) conditions.push(like(t.id, bind("idPattern", likePrefix(filter.idPrefix))));
    return conditions;
  }

  /** The rows the reconciler still follows. */
  live(): Row[] {
    return this.prepared.live.all() as Row[];
  }

  /**
   * Moves a row to `to` (recording the event) and applies `patch`. A transition to the status it
   * already has only applies the patch. With `expected`, nothing happens unless the row still has
   * that status (so a decision made on a stale read never overwrites a newer one, e.g. a stop
   * requested meanwhile). Returns the updated row, or undefined when nothing changed.
   */
  transition(id: string, to: Status, reason: string | null, patch: Patch = {} as Patch, expected?: Status, now = new Date()): Row | undefined {
    const { table, events } = this.tables;
    return this.db.transaction((tx) => {
      const current = tx.select().from(table).where(eq(table.id, id)).get() as Row | undefined;
      if (!current || (expected !== undefined && current.status !== expected)) return undefined;
      const at = now.toISOString();
      const changed = current.status !== to;
      tx.update(table)
        .set({ ...patch, status: to, reason: changed ? reason : (patch.reason ?? current.reason), updatedAt: at } as never)
        .where(eq(table.id, id))
        .run();
      if (changed) tx.insert(events).values({ ownerId: id, at, fromStatus: current.status, toStatus: to, reason } as never).run();
      return tx.select().from(table).where(eq(table.id, id)).get() as Row | undefined;
    });
  }

  /** Applies `patch` without a state change (e.g. the engine's handle became known). */
  patch(id: string, patch: Patch, now = new Date()) {
    const { table } = this.tables;
    this.db.update(table).set({ ...patch, updatedAt: now.toISOString() } as never).where(eq(table.id, id)).run();
  }

  /** Records an event that changes no status (e.g. a step of a renewal), with `patch` in the same transaction. */
  note(id: string, reason: string, patch: Patch = {} as Patch, now = new Date()): Row | undefined {
    const { table, events } = this.tables;
    return this.db.transaction((tx) => {
      const current = tx.select().from(table).where(eq(table.id, id)).get() as Row | undefined;
      if (!current) return undefined;
      const at = now.toISOString();
      if (Object.keys(patch).length) tx.update(table).set({ ...patch, updatedAt: at } as never).where(eq(table.id, id)).run();
      tx.insert(events).values({ ownerId: id, at, fromStatus: current.status, toStatus: current.status, reason } as never).run();
      return tx.select().from(table).where(eq(table.id, id)).get() as Row | undefined;
    });
  }

  events(id: string): WorkloadEvent<Status>[] {
    return (this.prepared.events.all({ id }) as EventRow<Status>[]).map(toEvent);
  }

  /** The events of several rows in one query, by id. */
  eventsOf(ids: string[]): Map<string, WorkloadEvent<Status>[]> {
    const byOwner = new Map<string, WorkloadEvent<Status>[]>();
    if (ids.length === 0) return byOwner;
    for (const e of this.prepared.eventsOf.all({ ids: JSON.stringify(ids) })) {
      const list = byOwner.get(e.ownerId) ?? [];
      list.push(toEvent(e));
      byOwner.set(e.ownerId, list);
    }
    return byOwner;
  }

  /** When the row last moved to `status`, if it ever did. */
  lastEnteredAt(id: string, status: Status): string | undefined {
    const { events } = this.tables;
    const found = this.db
      .select({ at: events.at })
      .from(events)
      .where(and(eq(events.ownerId, id), eq(events.toStatus, status)))
      .orderBy(desc(events.id))
      .limit(1)
      .get() as { at: string } | undefined;
    return found?.at;
  }

  /** Removes the row (its events go with it). */
  remove(id: string) {
    const { table } = this.tables;
    this.db.delete(table).where(eq(table.id, id)).run();
  }

  count(): number {
    return this.db.select({ n: sql<number>`count(*)` }).from(this.tables.table).get()?.n ?? 0;
  }
}
