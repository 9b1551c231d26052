import { and, asc, desc, eq, inArray, like, sql } from "drizzle-orm";
import { LIVE_STATUSES, type ServiceEvent, type ServiceStatus } from "@svc/contracts";
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
}

/** The orchestrator's records: services and their event history, in its own SQLite file. */
export class ServiceStore {
  private readonly db;

  constructor(file: string) {
    this.db = openDatabase(file, schema, MIGRATIONS);
    this.keepKeysOnce();
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
    return this.db.select().from(schema.services).where(eq(schema.services.id, id)).get();
  }

  /** Services whose id starts with `prefix` (at most `limit`). */
  byPrefix(prefix: string, limit = 10): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(like(schema.services.id, `${prefix.replace(/[%_]/g, "")}%`))
      .limit(limit)
      .all();
  }

  list(filter: ListFilter = {}): ServiceRow[] {
    const conditions = [];
    if (filter.status) conditions.push(eq(schema.services.status, filter.status));
    else if (!filter.all) conditions.push(inArray(schema.services.status, LIVE_STATUSES));
    if (filter.idPrefix) conditions.push(like(schema.services.id, `${filter.idPrefix.replace(/[%_]/g, "")}%`));
    return this.db
      .select()
      .from(schema.services)
      .where(and(...conditions))
      .orderBy(desc(schema.services.createdAt))
      .all();
  }

  /** Services the reconciler still follows. */
  live(): ServiceRow[] {
    return this.db.select().from(schema.services).where(inArray(schema.services.status, LIVE_STATUSES)).all();
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
    return this.db
      .select()
      .from(schema.serviceEvents)
      .where(eq(schema.serviceEvents.serviceId, id))
      .orderBy(asc(schema.serviceEvents.id))
      .all()
      .map((e) => ({ at: e.at, from: e.fromStatus, to: e.toStatus, reason: e.reason }));
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
