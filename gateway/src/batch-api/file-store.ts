import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { GatewayDb } from "../db/connection";
import { v1Files, type V1FileRow } from "../db/schema";
import type { BatchFileFacts } from "./batch-file";

/** Size limits: OpenAI's for one file, and what one key may keep in all. */
export const FILE_LIMITS = { fileBytes: 200 * 1024 * 1024, keyBytes: 2 * 1024 * 1024 * 1024 };

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The OpenAI `FileObject` of a row. */
export const fileObject = (row: V1FileRow) => ({
  id: row.id,
  object: "file" as const,
  bytes: row.bytes,
  created_at: row.createdAt,
  filename: row.filename,
  purpose: row.purpose,
  status: "processed" as const,
});

export interface ListOptions {
  purpose?: string;
  after?: string;
  limit: number;
  order: "asc" | "desc";
}

/**
 * /v1/files: each file's bytes in svc's uploads folder (`<home>/data/gateway/files/<id>`, where the
 * orchestrator takes a batch's input from), its record in the gateway's database, per owner.
 */
export class FileStore {
  constructor(
    private readonly db: GatewayDb,
    readonly dir: string,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  pathOf(id: string): string {
    return join(this.dir, id);
  }

  /** Bytes the owner keeps in all. */
  usedBytes(owner: string): number {
    return this.db.select({ total: sql<number>`coalesce(sum(${v1Files.bytes}), 0)` }).from(v1Files).where(eq(v1Files.owner, owner)).get()!.total;
  }

  /** Stores a file (written whole first, then recorded). */
  add(owner: string, file: { filename: string; purpose: string; data: Uint8Array; facts?: BatchFileFacts }): V1FileRow {
    const id = `file-${randomBytes(12).toString("hex")}`;
    const path = this.pathOf(id);
    writeFileSync(`${path}.part`, file.data, { mode: 0o600 });
    renameSync(`${path}.part`, path);
    const row: V1FileRow = {
      id,
      owner,
      filename: file.filename,
      purpose: file.purpose,
      bytes: file.data.byteLength,
      createdAt: nowSeconds(),
      lines: file.facts?.lines ?? null,
      model: file.facts?.model ?? null,
      urls: file.facts ? JSON.stringify(file.facts.urls) : null,
    };
    this.db.insert(v1Files).values(row).run();
    return row;
  }

  /** The owner's file, or undefined (another owner's file is not there for them). */
  get(owner: string, id: string): V1FileRow | undefined {
    return this.db.select().from(v1Files).where(and(eq(v1Files.id, id), eq(v1Files.owner, owner))).get();
  }

  list(owner: string, options: ListOptions): { rows: V1FileRow[]; hasMore: boolean } {
    const after = options.after ? this.get(owner, options.after) : undefined;
    const order = options.order === "asc" ? [asc(v1Files.createdAt), asc(v1Files.id)] : [desc(v1Files.createdAt), desc(v1Files.id)];
    const past = after
      ? options.order === "asc"
        ? sql`(${v1Files.createdAt}, ${v1Files.id}) > (${after.createdAt}, ${after.id})`
        : sql`(${v1Files.createdAt}, ${v1Files.id}) < (${after.createdAt}, ${after.id})`
      : undefined;
    const rows = this.db
      .select()
      .from(v1Files)
      .where(and(eq(v1Files.owner, owner), options.purpose ? eq(v1Files.purpose, options.purpose) : undefined, past))
      .orderBy(...order)
      .limit(options.limit + 1)
      .all();
    return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
  }

  remove(owner: string, id: string): boolean {
    const removed = this.db.delete(v1Files).where(and(eq(v1Files.id, id), eq(v1Files.owner, owner))).returning({ id: v1Files.id }).all().length > 0;
    if (removed) rmSync(this.pathOf(id), { force: true });
    return removed;
  }
}
