import { index, integer, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchStatus, BatchTask, DeploymentStatus, EngineKind, RoutingMode, ServiceStatus, Task } from "@svc/contracts";

/** What names a row and says where it runs: every workload's, and a deployment's (whose replicas are services). */
function identityColumns<Status extends string, Kind extends string>() {
  return {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    task: text("task").$type<Kind>().notNull(),
    model: text("model").notNull(),
    revision: text("revision").notNull(),
    profile: text("profile").notNull(),
    engine: text("engine").$type<EngineKind>().notNull(),
    status: text("status").$type<Status>().notNull(),
  };
}

/** When a row was made, by whom, and last changed. */
function authorColumns() {
  return {
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  };
}

/**
 * A workload is a thing that runs on an engine: a service or a batch job. Both tables hold these
 * columns (their own ones beside), and each has an event table of the same shape.
 */
function workloadColumns<Status extends string, Kind extends string>() {
  return {
    ...identityColumns<Status, Kind>(),
    reason: text("reason"),
    /** The engine's name for what it runs (a container id, a Slurm job id with its host), once it accepted it. */
    handle: text("handle"),
    /** JSON: the request as planned and the launch, so that it can be started again. */
    spec: text("spec").notNull(),
    ...authorColumns(),
  };
}

/** Every state change of every workload of a table, in order (`ownerId` is the workload's id, in `ownerColumn`). */
function workloadEvents<Status extends string>(name: string, ownerColumn: string, owner: () => AnySQLiteColumn, indexName: string) {
  return sqliteTable(
    name,
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      ownerId: text(ownerColumn)
        .notNull()
        .references(owner, { onDelete: "cascade" }),
      at: text("at").notNull(),
      fromStatus: text("from_status").$type<Status>(),
      toStatus: text("to_status").$type<Status>().notNull(),
      reason: text("reason"),
    },
    (table) => [index(indexName).on(table.ownerId, table.id)],
  );
}

/** One row per service ever run (spec §1.8: kept until `svc rm`). */
export const services = sqliteTable(
  "services",
  {
    ...workloadColumns<ServiceStatus, Task>(),
    host: text("host"),
    port: integer("port"),
    /** The container image of the service's inference server (the API's `runtime`). */
    runtime: text("runtime").notNull(),
    /** Kept so `restart` can start the same spec; never returned by the API. */
    apiKey: text("api_key"),
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
    /** The deployment this service is a replica of (svc run --replicas); null for a service of its own. */
    deploymentId: text("deployment_id"),
    /** When the scaler began draining this replica (no new request is sent to it); null when not draining. */
    drainingSince: text("draining_since"),
  },
  (table) => [
    // The list's order (newest first, the id breaking ties), on its own and within a status: a page
    // walks one of these and stops at its last row, however long the history.
    index("services_status_order").on(table.status, table.createdAt, table.id),
    index("services_created_order").on(table.createdAt, table.id),
    index("services_name").on(table.name),
    index("services_updated_at").on(table.updatedAt),
    // The stopped on-demand services /v1 may start (dormantOnDemand), found without reading the whole history.
    index("services_on_demand").on(table.onDemand, table.status),
    index("services_deployment").on(table.deploymentId),
  ],
);

export const serviceEvents = workloadEvents<ServiceStatus>("service_events", "service_id", () => services.id, "service_events_service");

/** One row per batch job (`svc batch`), kept until `svc batch rm`. The spec holds the folders, params and job options too. */
export const batches = sqliteTable(
  "batches",
  {
    /** The task is transcribe, chat, embed or openai. */
    ...workloadColumns<BatchStatus, BatchTask>(),
    /** Jobs the engine ran for it so far (the current one included). */
    allocations: integer("allocations").notNull().default(0),
    /** The driver's last progress file (JSON), as read on a status pass. */
    progress: text("progress"),
  },
  (table) => [index("batches_status").on(table.status), index("batches_created_at").on(table.createdAt)],
);

export const batchEvents = workloadEvents<BatchStatus>("batch_events", "batch_id", () => batches.id, "batch_events_batch");

/** One row per deployment (svc run --replicas): a named set of replicas, kept until removed. Its replicas are services. */
export const deployments = sqliteTable(
  "deployments",
  {
    ...identityColumns<DeploymentStatus, Task>(),
    min: integer("min").notNull(),
    max: integer("max").notNull(),
    targetInflight: integer("target_inflight").notNull(),
    scaleUpAfterSeconds: integer("scale_up_after_seconds").notNull(),
    scaleDownAfterSeconds: integer("scale_down_after_seconds").notNull(),
    routing: text("routing").$type<RoutingMode>().notNull(),
    /** JSON: the run request as planned (a replica's request: its spec, policies and key), for starting new replicas. */
    spec: text("spec").notNull(),
    ...authorColumns(),
  },
  (table) => [index("deployments_status").on(table.status), index("deployments_name").on(table.name)],
);

/** Every scaling decision of a deployment, and each change a person made, with its reason. */
export const deploymentEvents = sqliteTable(
  "deployment_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    at: text("at").notNull(),
    from: integer("from").notNull(),
    to: integer("to").notNull(),
    message: text("message").notNull(),
  },
  (table) => [index("deployment_events_deployment").on(table.deploymentId, table.id)],
);
