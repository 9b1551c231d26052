import type { Database } from "bun:sqlite";
import { Column, fillPlaceholders, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/** Every column of `table`, named as its row's field (`"created_at" as "createdAt"`): what a NativeRows query selects. */
export function fieldsOf(table: SQLiteTable): Record<string, SQL.Aliased> {
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([field, column]) => [field, sql`${column}`.as(field)]));
}

/**
 * `column` is one of the ids given as the placeholder `ids`, a JSON array: one prepared statement for
 * any number of ids (an IN list of its own length would be built and prepared anew on every call).
 */
export const inIdList = (column: Column) => sql`${column} in (select value from json_each(${sql.placeholder("ids")}))`;

/**
 * A query built by drizzle (selecting `fieldsOf(table)`) whose rows bun:sqlite builds itself:
 * drizzle's mapping of every value of every row costs more than SQLite takes to read them, on a
 * page of 100 services. The columns drizzle converts (a boolean is stored as 0 or 1) are
 * converted here the same way.
 */
export class NativeRows<Row> {
  /** The SQL it runs. */
  readonly text: string;
  private readonly statement;
  private readonly params: unknown[];
  private readonly converted: Array<[string, Column]>;

  constructor(
    client: Database,
    query: { toSQL(): { sql: string; params: unknown[] } },
    table: SQLiteTable,
  ) {
    const { sql: text, params } = query.toSQL();
    this.text = text;
    this.statement = client.prepare(text);
    this.params = params;
    this.converted = Object.entries(getTableColumns(table)).filter(([, column]) => column.mapFromDriverValue !== Column.prototype.mapFromDriverValue);
  }

  all(values: Record<string, unknown> = {}): Row[] {
    const rows = this.statement.all(...(fillPlaceholders(this.params, values) as never[])) as Record<string, unknown>[];
    for (const row of rows) {
      for (const [field, column] of this.converted) if (row[field] !== null) row[field] = column.mapFromDriverValue(row[field]);
    }
    return rows as Row[];
  }
}
