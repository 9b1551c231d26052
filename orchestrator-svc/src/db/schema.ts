import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { BatchStatus, BatchTask, EngineKind, ServiceStatus, Task } from "@svc/contracts";

/** One row per service ever run (spec §1.8: kept until `svc rm`). */
export const services = sqliteTable(
  "services",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    task: text("task").$type<Task>().notNull(),
    model: text("model").notNull(),
    revision: text("revision").notNull(),
    profile: text("profile").notNull(),
    status: text("status").$type<ServiceStatus>().notNull(),
    reason: text("reason"),
    host: text("host"),
    port: integer("port"),
    engine: text("engine").$type<EngineKind>().notNull(),
    /** The container image of the service's inference server (the API's `runtime`). */
    runtime: text("runtime").notNull(),
    handle: text("handle"),
    /** Kept so `restart` can start the same spec; never returned by the API. */
    apiKey: text("api_key"),
    /** JSON: job, text_generation, speech_recognition and engine_args as given. */
    spec: text("spec").notNull(),
    /** Policies (desired state): seconds, or null when off. */
    idleStopSeconds: integer("idle_stop_seconds"),
    onDemand: integer("on_demand", { mode: "boolean" }).notNull().default(false),
    startTimeoutSeconds: integer("start_timeout_seconds").notNull().default(900),
    renewBeforeSeconds: integer("renew_before_seconds"),
    /** The idle clock: the last request the gateway reported, or when the service last became HEALTHY. */
    lastRequestAt: text("last_request_at"),
    /** The current job's end time as the engine reports it (Slurm). */
    endsAt: text("ends_at"),
    /** Which job of the service `handle` is: 0 for the first, one more for each renewal successor. */
    generation: integer("generation").notNull().default(0),
    /** JSON: a renewal under way ({phase, handle, generation, since}); see reconciler/renewal.ts. */
    successor: text("successor"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    index("services_status").on(table.status),
    index("services_created_at").on(table.createdAt),
    index("services_name").on(table.name),
    index("services_updated_at").on(table.updatedAt),
    // The stopped on-demand services /v1 may start (dormantOnDemand), found without reading the whole history.
    index("services_on_demand").on(table.onDemand, table.status),
  ],
);

/** Every state change of every service, in order. */
export const serviceEvents = sqliteTable(
  "service_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    at: text("at").notNull(),
    fromStatus: text("from_status").$type<ServiceStatus>(),
    toStatus: text("to_status").$type<ServiceStatus>().notNull(),
    reason: text("reason"),
  },
  (table) => [index("service_events_service").on(table.serviceId, table.id)],
);

/** One row per batch job (`svc batch`), kept until `svc batch rm`. */
export const batches = sqliteTable(
  "batches",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** transcribe, chat, embed or openai. */
    task: text("task").$type<BatchTask>().notNull(),
    model: text("model").notNull(),
    revision: text("revision").notNull(),
    profile: text("profile").notNull(),
    engine: text("engine").$type<EngineKind>().notNull(),
    status: text("status").$type<BatchStatus>().notNull(),
    reason: text("reason"),
    handle: text("handle"),
    /** Jobs the engine ran for it so far (the current one included). */
    allocations: integer("allocations").notNull().default(0),
    /** The driver's last progress file (JSON), as read on a status pass. */
    progress: text("progress"),
    /** JSON: the request as planned (folders, params, job options) and the launch (image, args, model folder). */
    spec: text("spec").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("batches_status").on(table.status), index("batches_created_at").on(table.createdAt)],
);

/** Every state change of every batch job, in order. */
export const batchEvents = sqliteTable(
  "batch_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    batchId: text("batch_id")
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    at: text("at").notNull(),
    fromStatus: text("from_status").$type<BatchStatus>(),
    toStatus: text("to_status").$type<BatchStatus>().notNull(),
    reason: text("reason"),
  },
  (table) => [index("batch_events_batch").on(table.batchId, table.id)],
);
