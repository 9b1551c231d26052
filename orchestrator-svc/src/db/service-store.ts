import { and, asc, desc, eq, gte, inArray, like, lt, notInArray, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { DORMANT_STATUSES, isLive, LIVE_STATUSES, type ServiceEvent, type ServiceStatus } from "@svc/contracts";
import { openDatabase } from "@svc/platform/db";
import { join } from "node:path";
import * as schema from "./schema";

/** Launch arguments without `--api-key <key>` (or `--api-key=<key>`). */
export function withoutApiKey(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--api-key") i++;
    else if (!args[i].startsWith("--api-key=")) kept.push(args[i]);
  }
  return kept;
}

export type ServiceRow = typeof schema.services.$inferSelect;
export type NewServiceRow = typeof schema.services.$inferInsert;
/** Fields a transition may change besides the status. */
export type ServicePatch = Partial<Pick<ServiceRow, "reason" | "host" | "port" | "handle" | "runtime" | "lastRequestAt" | "endsAt" | "generation" | "successor">>;

const MIGRATIONS = join(import.meta.dir, "..", "..", "drizzle");

export interface ListFilter {
  status?: ServiceStatus;
  idPrefix?: string;
  /** Include stopped, failed and timed-out services. */
  all?: boolean;
  /** Without `all` or `status`: also the services that ended (last changed) at or after this time. */
  endedSince?: Date;
}

/** Where a page of the list ends: the last row's place in the order (live first, then newest first). */
export interface ListPosition {
  ended: 0 | 1;
  createdAt: string;
  id: string;
}

/** A LIKE pattern for values starting with `prefix` (its own wildcards dropped). */
const likePrefix = (prefix: string) => `${prefix.replace(/[%_]/g, "")}%`;

/** Prepared page queries kept at most (one per filter shape and page size); more, and they are made anew. */
const MAX_PAGE_QUERIES = 64;

/** A filter's value as it goes into a condition: itself, or a placeholder bound when the prepared query runs. */
type Bind = <T extends string>(name: string, value: T) => T | Placeholder;

/** The orchestrator's records: services and their event history, in its own SQLite file. */
export class ServiceStore {
  private readonly db;
  private readonly pageQueries = new Map<string, ReturnType<ServiceStore["preparePage"]> | null>();

  /** What every API call on a service and every reconcile tick ask, prepared once (see pageQuery). */
  private readonly prepared;

  constructor(file: string) {
    this.db = openDatabase(file, schema, MIGRATIONS);
    this.keepKeysOnce();
    const { services, serviceEvents } = schema;
    this.prepared = {
      get: this.db.select().from(services).where(eq(services.id, sql.placeholder("id"))).prepare(),
      live: this.db.select().from(services).where(inArray(services.status, LIVE_STATUSES)).prepare(),
      events: this.db.select().from(serviceEvents).where(eq(serviceEvents.serviceId, sql.placeholder("id"))).orderBy(asc(serviceEvents.id)).prepare(),
    };
  }

  /**
   * A service's API key is kept once, in `api_key`. Records written before that also carried it as
   * `--api-key <key>` in their stored launch arguments: those copies are removed.
   */
  private keepKeysOnce() {
    const carrying = this.db.select().from(schema.services).where(like(schema.services.spec, "%--api-key%")).all();
    for (const row of carrying) {
      const spec = JSON.parse(row.spec) as { launch?: { args?: string[] } };
      if (!spec.launch?.args) continue;
      spec.launch.args = withoutApiKey(spec.launch.args);
      this.db.update(schema.services).set({ spec: JSON.stringify(spec) }).where(eq(schema.services.id, row.id)).run();
    }
  }

  insert(row: NewServiceRow, reason: string | null) {
    this.db.transaction((tx) => {
      tx.insert(schema.services).values(row).run();
      tx.insert(schema.serviceEvents).values({ serviceId: row.id, at: row.createdAt, fromStatus: null, toStatus: row.status, reason }).run();
    });
  }

  get(id: string): ServiceRow | undefined {
    return this.prepared.get.get({ id });
  }

  /** The services with these ids, by id, in one query (a reconcile tick re-reads all it follows). */
  byIds(ids: string[]): Map<string, ServiceRow> {
    const found = new Map<string, ServiceRow>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const row of this.db.select().from(schema.services).where(inArray(schema.services.id, ids.slice(i, i + 500))).all()) found.set(row.id, row);
    }
    return found;
  }

  /** Services whose id starts with `prefix` (at most `limit`). */
  byPrefix(prefix: string, limit = 10): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(like(schema.services.id, likePrefix(prefix)))
      .limit(limit)
      .all();
  }

  /** Services matching `filter`, newest first. */
  list(filter: ListFilter = {}): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(and(...this.conditions(filter)))
      .orderBy(desc(schema.services.createdAt))
      .all();
  }

  /**
   * One page of the services matching `filter`: live ones first, then ended ones, each newest first;
   * `after` is where the previous page ended. `next` is where this one ended, when more follow.
   */
  page(filter: ListFilter, limit: number, after?: ListPosition): { rows: ServiceRow[]; next?: ListPosition } {
    // Two queries, live then ended, each walking an index newest first: with 10,000 ended services
    // a page costs the same as with 10 (one query ordered by "is it live" would sort them all).
    const rows: Array<{ row: ServiceRow; ended: 0 | 1 }> = [];
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
   * The prepared query of one part of a page, at most `rows` rows, for filters of this shape (which
   * conditions they have, their values bound at each call), or null when that part can have no
   * services. Drizzle builds each shape once: building a query's SQL costs several times what
   * SQLite takes to run it.
   *
   * The row count is written into the SQL, not bound: SQLite's planner picks its index by it (a
   * LIMIT it cannot see made it walk all 10,000 ended services of a history), and a bound LIMIT
   * makes SQLite prepare the statement again each time it is bound (~9 µs a query).
   */
  private pageQuery(filter: ListFilter, part: "live" | "ended", from: boolean, rows: number) {
    const shape = [part, filter.status === undefined ? "-" : isLive(filter.status), Boolean(filter.all), Boolean(filter.endedSince), Boolean(filter.idPrefix), from, rows].join("|");
    let query = this.pageQueries.get(shape);
    if (query === undefined) {
      const conditions = this.conditions(filter, part, (name) => sql.placeholder(name));
      if (this.pageQueries.size >= MAX_PAGE_QUERIES) this.pageQueries.clear();
      query = conditions ? this.preparePage(conditions, from, rows) : null;
      this.pageQueries.set(shape, query);
    }
    return query;
  }

  private preparePage(conditions: SQL[], from: boolean, rows: number) {
    if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`a page of ${rows} rows`);
    const s = schema.services;
    const after = sql.placeholder("afterCreatedAt");
    return this.db
      .select()
      .from(s)
      .where(and(...conditions, ...(from ? [or(lt(s.createdAt, after), and(eq(s.createdAt, after), lt(s.id, sql.placeholder("afterId"))))!] : [])))
      .orderBy(desc(s.createdAt), desc(s.id))
      // Written into the SQL (drizzle would bind a number): rows is a checked whole number.
      .limit(sql.raw(String(rows)) as unknown as number)
      .prepare();
  }

  /**
   * The conditions of `filter`; with `part`, for its live or its ended services only (undefined when
   * that part can have none).
   */
  private conditions(filter: ListFilter): SQL[];
  private conditions(filter: ListFilter, part: "live" | "ended", bind?: Bind): SQL[] | undefined;
  private conditions(filter: ListFilter, part?: "live" | "ended", bind: Bind = (_, value) => value): SQL[] | undefined {
    const s = schema.services;
    const conditions: SQL[] = [];
    const live = inArray(s.status, LIVE_STATUSES);
    if (filter.status) {
      if (part && isLive(filter.status) !== (part === "live")) return undefined;
      conditions.push(eq(s.status, bind("status", filter.status)));
    } else if (part === "live") conditions.push(live);
    else if (part === "ended") {
      conditions.push(notInArray(s.status, LIVE_STATUSES));
      if (!filter.all) {
        if (!filter.endedSince) return undefined;
        conditions.push(gte(s.updatedAt, bind("endedSince", filter.endedSince.toISOString())));
      }
    } else if (!filter.all) conditions.push(filter.endedSince ? or(live, gte(s.updatedAt, bind("endedSince", filter.endedSince.toISOString())))! : live);
    if (filter.idPrefix) conditions.push(like(s.id, bind("idPattern", likePrefix(filter.idPrefix))));
    return conditions;
  }

  /** Services the reconciler still follows. */
  live(): ServiceRow[] {
    return this.prepared.live.all();
  }

  /** Ended services that a request starts again (--on-demand): STOPPED or TIMEOUT. */
  dormantOnDemand(): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(and(eq(schema.services.onDemand, true), inArray(schema.services.status, DORMANT_STATUSES)))
      .all();
  }

  liveWithName(name: string): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(and(eq(schema.services.name, name), inArray(schema.services.status, LIVE_STATUSES)))
      .all();
  }

  /** Names in use that start with `prefix`, for picking the next default name. */
  namesLike(prefix: string): string[] {
    return this.db
      .select({ name: schema.services.name })
      .from(schema.services)
      .where(like(schema.services.name, `${prefix}%`))
      .all()
      .map((r) => r.name);
  }

  /**
   * Moves a service to `to` (recording the event) and applies `patch`. A transition to the
   * status it already has only applies the patch. With `expected`, nothing happens unless the
   * service still has that status (so a decision made on a stale read never overwrites a newer
   * one, e.g. a stop requested meanwhile). Returns the updated row, or undefined when nothing changed.
   */
  transition(id: string, to: ServiceStatus, reason: string | null, patch: ServicePatch = {}, expected?: ServiceStatus, now = new Date()): ServiceRow | undefined {
    return this.db.transaction((tx) => {
      const current = tx.select().from(schema.services).where(eq(schema.services.id, id)).get();
      if (!current || (expected !== undefined && current.status !== expected)) return undefined;
      const at = now.toISOString();
      const changed = current.status !== to;
      tx.update(schema.services)
        .set({ ...patch, status: to, reason: changed ? reason : (patch.reason ?? current.reason), updatedAt: at })
        .where(eq(schema.services.id, id))
        .run();
      if (changed) tx.insert(schema.serviceEvents).values({ serviceId: id, at, fromStatus: current.status, toStatus: to, reason }).run();
      return tx.select().from(schema.services).where(eq(schema.services.id, id)).get();
    });
  }

  /** Applies `patch` without a state change (e.g. the port became known). */
  patch(id: string, patch: ServicePatch, now = new Date()) {
    this.db.update(schema.services).set({ ...patch, updatedAt: now.toISOString() }).where(eq(schema.services.id, id)).run();
  }

  /** Records an event that changes no status (e.g. a step of a renewal), with `patch` in the same transaction. */
  note(id: string, reason: string, patch: ServicePatch = {}, now = new Date()): ServiceRow | undefined {
    return this.db.transaction((tx) => {
      const current = tx.select().from(schema.services).where(eq(schema.services.id, id)).get();
      if (!current) return undefined;
      const at = now.toISOString();
      if (Object.keys(patch).length) tx.update(schema.services).set({ ...patch, updatedAt: at }).where(eq(schema.services.id, id)).run();
      tx.insert(schema.serviceEvents).values({ serviceId: id, at, fromStatus: current.status, toStatus: current.status, reason }).run();
      return tx.select().from(schema.services).where(eq(schema.services.id, id)).get();
    });
  }

  /** Moves each service's idle clock forward to the request time the gateway reported (never back). */
  recordActivity(reports: { id: string; lastRequestAt: string }[]): number {
    let known = 0;
    this.db.transaction((tx) => {
      for (const { id, lastRequestAt } of reports) {
        const at = new Date(lastRequestAt);
        if (Number.isNaN(at.getTime())) continue;
        const iso = at.toISOString();
        if (tx.select({ id: schema.services.id }).from(schema.services).where(eq(schema.services.id, id)).get()) known++;
        tx
          .update(schema.services)
          .set({ lastRequestAt: iso })
          .where(and(eq(schema.services.id, id), sql`(${schema.services.lastRequestAt} IS NULL OR ${schema.services.lastRequestAt} < ${iso})`))
          .run();
      }
    });
    return known;
  }

  events(id: string): ServiceEvent[] {
    return this.prepared.events.all({ id }).map((e) => ({ at: e.at, from: e.fromStatus, to: e.toStatus, reason: e.reason }));
  }

  /** The events of several services in one query, by service id. */
  eventsOf(ids: string[]): Map<string, ServiceEvent[]> {
    const byService = new Map<string, ServiceEvent[]>();
    if (ids.length === 0) return byService;
    const rows = this.db.select().from(schema.serviceEvents).where(inArray(schema.serviceEvents.serviceId, ids)).orderBy(asc(schema.serviceEvents.id)).all();
    for (const e of rows) {
      const list = byService.get(e.serviceId) ?? [];
      list.push({ at: e.at, from: e.fromStatus, to: e.toStatus, reason: e.reason });
      byService.set(e.serviceId, list);
    }
    return byService;
  }

  /** When the service last moved to `status`, if it ever did. */
  lastEnteredAt(id: string, status: ServiceStatus): string | undefined {
    return this.db
      .select({ at: schema.serviceEvents.at })
      .from(schema.serviceEvents)
      .where(and(eq(schema.serviceEvents.serviceId, id), eq(schema.serviceEvents.toStatus, status)))
      .orderBy(desc(schema.serviceEvents.id))
      .limit(1)
      .get()?.at;
  }

  remove(id: string) {
    this.db.delete(schema.services).where(eq(schema.services.id, id)).run();
  }

  count(): number {
    return this.db.select({ n: sql<number>`count(*)` }).from(schema.services).get()?.n ?? 0;
  }

  byHandles(handles: string[]): ServiceRow[] {
    return handles.length ? this.db.select().from(schema.services).where(inArray(schema.services.handle, handles)).all() : [];
  }
}
