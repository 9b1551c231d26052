import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** API keys for people using /v1: only a hash of each key is kept. */
export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  /** SHA-256 of the whole key, hex. */
  hash: text("hash").notNull().unique(),
  /** The key's first characters, to recognise it in a list. */
  prefix: text("prefix").notNull(),
  /** JSON array of repo ids the key may use; null: every model. */
  models: text("models"),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at"),
  lastUsedAt: text("last_used_at"),
});

/** One row per /v1 request. */
export const usage = sqliteTable(
  "usage",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    keyId: text("key_id"),
    /** The key's name, or `svc-token` / `anonymous`; kept after the key is removed. */
    caller: text("caller").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model"),
    serviceId: text("service_id"),
    serviceName: text("service_name"),
    status: integer("status").notNull(),
    end: text("end").notNull(),
    latencyMs: real("latency_ms").notNull(),
    promptTokens: integer("prompt_tokens"),
    completionTokens: integer("completion_tokens"),
  },
  (table) => [index("usage_at").on(table.at)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type UsageRow = typeof usage.$inferSelect;

/**
 * Responses made through /v1/responses with `store` (the default), so that `previous_response_id`,
 * GET and DELETE find them; kept as long as usage. `owner` is the key's id, or `app` for the svc
 * token, a UI session and debug mode's anonymous callers.
 */
export const storedResponses = sqliteTable(
  "responses",
  {
    id: text("id").primaryKey(),
    owner: text("owner").notNull(),
    createdAt: text("created_at").notNull(),
    /** JSON array of the input items the model saw, the earlier turns' included (never the instructions). */
    history: text("history").notNull(),
    /** JSON of the Response object, as answered. */
    response: text("response").notNull(),
  },
  (table) => [index("responses_created_at").on(table.createdAt), index("responses_owner").on(table.owner)],
);

export type StoredResponseRow = typeof storedResponses.$inferSelect;
