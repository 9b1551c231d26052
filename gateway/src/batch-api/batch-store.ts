import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { GatewayDb } from "../db/connection";
import { v1Batches, type V1BatchRow } from "../db/schema";

/**
 * The OpenAI batches (/v1/batches) in the gateway's database, per owner: what OpenAI's `Batch`
 * says that svc's batch job does not keep (the input file, endpoint, metadata, the files made at
 * its end, OpenAI's timestamps).
 */
export class BatchStore {
  constructor(private readonly db: GatewayDb) {}

  newId(): string {
    return `batch_${randomBytes(12).toString("hex")}`;
  }

  insert(row: V1BatchRow): void {
    this.db.insert(v1Batches).values(row).run();
  }

  get(owner: string, id: string): V1BatchRow | undefined {
    return this.db.select().from(v1Batches).where(and(eq(v1Batches.id, id), eq(v1Batches.owner, owner))).get();
  }

  /** The owner's batches, newest first, after the one `after` names. */
  list(owner: string, after: string | undefined, limit: number): { rows: V1BatchRow[]; hasMore: boolean } {
    const from = after ? this.get(owner, after) : undefined;
    const rows = this.db
      .select()
      .from(v1Batches)
      .where(and(eq(v1Batches.owner, owner), from ? sql`(${v1Batches.createdAt}, ${v1Batches.id}) < (${from.createdAt}, ${from.id})` : undefined))
      .orderBy(desc(v1Batches.createdAt), desc(v1Batches.id))
      .limit(limit + 1)
      .all();
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  patch(id: string, values: Partial<V1BatchRow>): V1BatchRow {
    return this.db.update(v1Batches).set(values).where(eq(v1Batches.id, id)).returning().get()!;
  }
}

/** The OpenAI `Batch` of a row. */
export function batchObject(row: V1BatchRow) {
  const optional = <T>(value: T | null) => (value === null ? undefined : value);
  const errors = row.errors ? (JSON.parse(row.errors) as Array<{ code: string; message: string; line?: number | null }>) : undefined;
  return {
    id: row.id,
    object: "batch" as const,
    endpoint: row.endpoint,
    model: row.model,
    errors: errors ? { object: "list", data: errors.map((error) => ({ line: null, param: null, ...error })) } : undefined,
    input_file_id: row.inputFileId,
    completion_window: row.completionWindow,
    status: row.status,
    output_file_id: optional(row.outputFileId),
    error_file_id: optional(row.errorFileId),
    created_at: row.createdAt,
    in_progress_at: optional(row.inProgressAt),
    expires_at: row.expiresAt,
    finalizing_at: optional(row.finalizingAt),
    completed_at: optional(row.completedAt),
    failed_at: optional(row.failedAt),
    cancelling_at: optional(row.cancellingAt),
    cancelled_at: optional(row.cancelledAt),
    request_counts: { total: row.total, completed: row.completed, failed: row.failed },
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : null,
  };
}
