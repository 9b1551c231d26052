import { and, asc, desc, eq, inArray, like } from "drizzle-orm";
import { LIVE_BATCH_STATUSES, type BatchStatus } from "@svc/contracts";
import { openDatabase } from "@svc/platform/db";
import { join } from "node:path";
import * as schema from "./schema";

export type BatchRow = typeof schema.batches.$inferSelect;
export type NewBatchRow = typeof schema.batches.$inferInsert;
/** Fields a transition may change besides the status. */
export type BatchPatch = Partial<Pick<BatchRow, "reason" | "handle" | "allocations" | "progress">>;

const MIGRATIONS = join(import.meta.dir, "..", "..", "drizzle");

/** The orchestrator's batch jobs and their event history (same SQLite file as the services, own tables). */
export class BatchStore {
  private readonly db;

  constructor(file: string) {
    this.db = openDatabase(file, schema, MIGRATIONS);
  }

  insert(row: NewBatchRow, reason: string | null) {
    this.db.transaction((tx) => {
      tx.insert(schema.batches).values(row).run();
      tx.insert(schema.batchEvents).values({ batchId: row.id, at: row.createdAt, fromStatus: null, toStatus: row.status, reason }).run();
    });
  }

  get(id: string): BatchRow | undefined {
    return this.db.select().from(schema.batches).where(eq(schema.batches.id, id)).get();
  }

  byPrefix(prefix: string, limit = 10): BatchRow[] {
    return this.db
      .select()
      .from(schema.batches)
      .where(like(schema.batches.id, `${prefix.replace(/[%_]/g, "")}%`))
      .limit(limit)
      .all();
  }

  list(filter: { status?: BatchStatus; all?: boolean } = {}): BatchRow[] {
    const conditions = [];
    if (filter.status) conditions.push(eq(schema.batches.status, filter.status));
    else if (!filter.all) conditions.push(inArray(schema.batches.status, LIVE_BATCH_STATUSES));
    return this.db
      .select()
      .from(schema.batches)
      .where(and(...conditions))
      .orderBy(desc(schema.batches.createdAt))
      .all();
  }

  live(): BatchRow[] {
    return this.db.select().from(schema.batches).where(inArray(schema.batches.status, LIVE_BATCH_STATUSES)).all();
  }

  /** Moves a job to `to` (recording the event) and applies `patch`; with `expected`, only if it still has that status. */
  transition(id: string, to: BatchStatus, reason: string | null, patch: BatchPatch = {}, expected?: BatchStatus): BatchRow | undefined {
    return this.db.transaction((tx) => {
      const current = tx.select().from(schema.batches).where(eq(schema.batches.id, id)).get();
      if (!current || (expected !== undefined && current.status !== expected)) return undefined;
      const at = new Date().toISOString();
      const changed = current.status !== to;
      tx.update(schema.batches)
        .set({ ...patch, status: to, reason: changed ? reason : (patch.reason ?? current.reason), updatedAt: at })
        .where(eq(schema.batches.id, id))
        .run();
      if (changed) tx.insert(schema.batchEvents).values({ batchId: id, at, fromStatus: current.status, toStatus: to, reason }).run();
      return tx.select().from(schema.batches).where(eq(schema.batches.id, id)).get();
    });
  }

  patch(id: string, patch: BatchPatch) {
    this.db.update(schema.batches).set({ ...patch, updatedAt: new Date().toISOString() }).where(eq(schema.batches.id, id)).run();
  }

  events(id: string) {
    return this.db
      .select()
      .from(schema.batchEvents)
      .where(eq(schema.batchEvents.batchId, id))
      .orderBy(asc(schema.batchEvents.id))
      .all()
      .map((e) => ({ at: e.at, from: e.fromStatus, to: e.toStatus, reason: e.reason }));
  }

  remove(id: string) {
    this.db.delete(schema.batches).where(eq(schema.batches.id, id)).run();
  }
}
