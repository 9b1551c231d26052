import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { DORMANT_STATUSES, LIVE_STATUSES, type ServiceStatus } from "@svc/contracts";
import { fieldsOf, inIdList, NativeRows } from "./native-rows";
import * as schema from "./schema";
import { WorkloadStore, type ListFilter as WorkloadListFilter } from "./workload-store";

export type { ListPosition } from "./workload-store";

/** Launch arguments without `--api-key <key>` (or `--api-key=<key>`). */
export function withoutApiKey(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--api-key") i++;
    else if (!args[i].startsWith("--api-key=")) kept.push(args[i]);
  }
  return kept;
}

export type ServiceRow = typeof schema.services.$inferSelect;
export type NewServiceRow = typeof schema.services.$inferInsert;
/** Fields a transition may change besides the status. */
export type ServicePatch = Partial<Pick<ServiceRow, "spec" | "reason" | "host" | "port" | "handle" | "runtime" | "lastRequestAt" | "endsAt" | "generation" | "successor" | "drainingSince">>;

export type ListFilter = WorkloadListFilter<ServiceStatus>;

/** The orchestrator's records: services and their event history, in its own SQLite file. */
export class ServiceStore extends WorkloadStore<ServiceRow, NewServiceRow, ServiceStatus, ServicePatch> {
  constructor(file: string) {
    super(file, { table: schema.services, events: schema.serviceEvents, live: LIVE_STATUSES });
    this.keepKeysOnce();
    const t = schema.services;
    this.replicaRows = new NativeRows<ServiceRow>(
      this.db.$client,
      this.db
        .select(fieldsOf(t))
        .from(t)
        .where(inIdList(t.deploymentId))
        .orderBy(asc(t.createdAt), asc(t.name)),
      t,
    );
  }

  /** The replicas of deployments, asked by every deployment's details and each scaler tick: prepared once. */
  private readonly replicaRows: NativeRows<ServiceRow>;

  /**
   * A service's API key is kept once, in `api_key`. Records written before that also carried it as
   * `--api-key <key>` in their stored launch arguments: those copies are removed.
   */
  private keepKeysOnce() {
    const carrying = this.db.select().from(schema.services).where(like(schema.services.spec, "%--api-key%")).all();
    for (const row of carrying) {
      const spec = JSON.parse(row.spec) as { launch?: { args?: string[] } };
      if (!spec.launch?.args) continue;
      spec.launch.args = withoutApiKey(spec.launch.args);
      this.db.update(schema.services).set({ spec: JSON.stringify(spec) }).where(eq(schema.services.id, row.id)).run();
    }
  }

  /** Ended services that a request starts again (--on-demand): STOPPED or TIMEOUT. */
  dormantOnDemand(): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(and(eq(schema.services.onDemand, true), inArray(schema.services.status, DORMANT_STATUSES)))
      .all();
  }

  liveWithName(name: string): ServiceRow[] {
    return this.db
      .select()
      .from(schema.services)
      .where(and(eq(schema.services.name, name), inArray(schema.services.status, LIVE_STATUSES)))
      .all();
  }

  /** Names in use that start with `prefix`, for picking the next default name. */
  namesLike(prefix: string): string[] {
    return this.db
      .select({ name: schema.services.name })
      .from(schema.services)
      .where(like(schema.services.name, `${prefix}%`))
      .all()
      .map((r) => r.name);
  }

  /** Moves each service's idle clock forward to the request time the gateway reported (never back). */
  recordActivity(reports: { id: string; lastRequestAt: string }[]): number {
    let known = 0;
    this.db.transaction((tx) => {
      for (const { id, lastRequestAt } of reports) {
        const at = new Date(lastRequestAt);
        if (Number.isNaN(at.getTime())) continue;
        const iso = at.toISOString();
        if (tx.select({ id: schema.services.id }).from(schema.services).where(eq(schema.services.id, id)).get()) known++;
        tx
          .update(schema.services)
          .set({ lastRequestAt: iso })
          .where(and(eq(schema.services.id, id), sql`(${schema.services.lastRequestAt} IS NULL OR ${schema.services.lastRequestAt} < ${iso})`))
          .run();
      }
    });
    return known;
  }

  /** The replicas of these deployments (services with their deployment_id), by deployment, oldest first. */
  replicasOf(deploymentIds: string[]): Map<string, ServiceRow[]> {
    const found = new Map<string, ServiceRow[]>(deploymentIds.map((id) => [id, []]));
    if (deploymentIds.length === 0) return found;
    for (const row of this.replicaRows.all({ ids: JSON.stringify(deploymentIds) })) found.get(row.deploymentId!)?.push(row);
    return found;
  }

  byHandles(handles: string[]): ServiceRow[] {
    return handles.length ? this.db.select().from(schema.services).where(inArray(schema.services.handle, handles)).all() : [];
  }
}
