import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";

/**
 * Opens a service's own SQLite file (WAL, foreign keys, a busy timeout so a second connection
 * waits instead of failing) and applies its checked-in drizzle migrations.
 */
export function openDatabase<TSchema extends Record<string, unknown>>(file: string, schema: TSchema, migrationsFolder: string) {
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}
