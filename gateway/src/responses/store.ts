import { and, eq } from "drizzle-orm";
import type { GatewayDb } from "../db/connection";
import { storedResponses } from "../db/schema";
import type { Caller } from "../openai/caller";
import type { InputItem, ResponseBody } from "./model";

/**
 * Whose a stored response is: an API key's, or — for every caller without a per-person key (the
 * svc token, a logged-in UI session, anyone in debug mode) — the app's, which all of those share.
 */
export const ownerOf = (caller: Caller) => (caller.kind === "key" ? `key:${caller.id}` : "app");

export interface StoredResponse {
  history: InputItem[];
  response: ResponseBody;
}

/** Responses per owner in the gateway's database, kept `retentionDays` like usage. */
export class ResponseStore {
  constructor(
    private readonly db: GatewayDb,
    readonly retentionDays: number,
  ) {}

  save(owner: string, history: InputItem[], response: ResponseBody): void {
    this.db
      .insert(storedResponses)
      .values({ id: response.id, owner, createdAt: new Date(response.created_at * 1000).toISOString(), history: JSON.stringify(history), response: JSON.stringify(response) })
      .onConflictDoUpdate({ target: storedResponses.id, set: { history: JSON.stringify(history), response: JSON.stringify(response) } })
      .run();
  }

  /** The owner's response with this id; undefined for another owner's, as for none. */
  get(owner: string, id: string): StoredResponse | undefined {
    const row = this.db.select().from(storedResponses).where(and(eq(storedResponses.id, id), eq(storedResponses.owner, owner))).get();
    return row ? { history: JSON.parse(row.history), response: JSON.parse(row.response) } : undefined;
  }

  /** Deletes the owner's response; false when the owner has none with this id. */
  delete(owner: string, id: string): boolean {
    return this.db.$client.query("delete from responses where id = ? and owner = ?").run(id, owner).changes > 0;
  }

  /** Deletes what is older than the retention period; how many went. */
  prune(now = new Date()): number {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    return this.db.$client.query("delete from responses where created_at < ?").run(cutoff).changes;
  }
}
