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
  /** The key's limits through /v1 (KeyLimits), each null for none. */
  requestsPerMinute: integer("requests_per_minute"),
  tokensPerMinute: integer("tokens_per_minute"),
  maxParallel: integer("max_parallel"),
  dailyTokens: integer("daily_tokens"),
  monthlyTokens: integer("monthly_tokens"),
  /** Its requests' default service_tier, and the highest they may ask for. */
  tier: text("tier", { enum: ["priority", "default", "flex"] }).notNull().default("default"),
  /** Its share of a saturated model against other keys. */
  weight: integer("weight").notNull().default(1),
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

/** Files uploaded through /v1/files (OpenAI batch inputs) and the output and error files of batches; the bytes are in homeLayout's uploadsDir. */
export const v1Files = sqliteTable(
  "v1_files",
  {
    id: text("id").primaryKey(),
    /** Who may see it: `key:<id>`, `token` or `anonymous` (see batch-api/owner.ts). */
    owner: text("owner").notNull(),
    filename: text("filename").notNull(),
    purpose: text("purpose").notNull(),
    bytes: integer("bytes").notNull(),
    /** Unix seconds, as OpenAI's `created_at`. */
    createdAt: integer("created_at").notNull(),
    /** A batch input: its requests, the model they name and the endpoints they use (JSON array). */
    lines: integer("lines"),
    model: text("model"),
    urls: text("urls"),
  },
  (table) => [index("v1_files_owner").on(table.owner, table.createdAt)],
);

/** OpenAI batches (/v1/batches): each one an svc batch job of task openai. */
export const v1Batches = sqliteTable(
  "v1_batches",
  {
    id: text("id").primaryKey(),
    owner: text("owner").notNull(),
    /** The owner's name as usage records it (the key's name, `svc-token`, `anonymous`). */
    caller: text("caller").notNull(),
    /** The svc batch job (orchestrator's /api/batches) that runs it. */
    jobId: text("job_id").notNull(),
    inputFileId: text("input_file_id").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model").notNull(),
    completionWindow: text("completion_window").notNull(),
    /** JSON object of strings, or null. */
    metadata: text("metadata"),
    /** OpenAI's status, as last seen (the terminal ones stay). */
    status: text("status").notNull(),
    total: integer("total").notNull(),
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    outputFileId: text("output_file_id"),
    errorFileId: text("error_file_id"),
    /** JSON array of `{code, message, line?}`, when the batch failed. */
    errors: text("errors"),
    createdAt: integer("created_at").notNull(),
    inProgressAt: integer("in_progress_at"),
    finalizingAt: integer("finalizing_at"),
    completedAt: integer("completed_at"),
    failedAt: integer("failed_at"),
    cancellingAt: integer("cancelling_at"),
    cancelledAt: integer("cancelled_at"),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("v1_batches_owner").on(table.owner, table.createdAt)],
);

export type V1FileRow = typeof v1Files.$inferSelect;
export type V1BatchRow = typeof v1Batches.$inferSelect;

/** Outside endpoints (svc endpoint add): their API keys are not here but in files of their own, mode 0600. */
export const outsideEndpoints = sqliteTable("outside_endpoints", {
  name: text("name").primaryKey(),
  /** The base URL, normalised (no trailing /v1). */
  url: text("url").notNull(),
  /** JSON array of the models given at add; null: read from the server's GET /v1/models. */
  models: text("models"),
  hasKey: integer("has_key", { mode: "boolean" }).notNull(),
  createdAt: text("created_at").notNull(),
});

export type OutsideEndpointRow = typeof outsideEndpoints.$inferSelect;
