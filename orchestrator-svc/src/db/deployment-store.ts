import { asc, desc, eq, gte, inArray, like, or, sql } from "drizzle-orm";
import type { DeploymentEvent } from "@svc/contracts";
import { openDatabase } from "@svc/platform/db";
import * as schema from "./schema";
import { likePrefix, MIGRATIONS } from "./workload-store";

export type DeploymentRow = typeof schema.deployments.$inferSelect;
/** What PATCH (svc scale) and stop may change. */
export type DeploymentPatch = Partial<Pick<DeploymentRow, "spec" | "status" | "min" | "max" | "targetInflight" | "scaleUpAfterSeconds" | "scaleDownAfterSeconds" | "routing">>;

/** The deployments (replica sets) and their scaling events, in the orchestrator's SQLite file beside the services. */
export class DeploymentStore {
  private readonly db;

  /** What each deployment's details and every scaler tick ask, prepared once. */
  private readonly prepared;

  constructor(file: string) {
    this.db = openDatabase(file, schema, MIGRATIONS);
    const t = schema.deployments;
    const e = schema.deploymentEvents;
    this.prepared = {
      get: this.db.select().from(t).where(eq(t.id, sql.placeholder("id"))).prepare(),
      named: this.db.select().from(t).where(eq(t.name, sql.placeholder("name"))).orderBy(desc(t.createdAt)).prepare(),
      active: this.db.select().from(t).where(eq(t.status, "ACTIVE")).orderBy(asc(t.createdAt)).prepare(),
      events: this.db.select({ at: e.at, from: e.from, to: e.to, message: e.message }).from(e).where(eq(e.deploymentId, sql.placeholder("id"))).orderBy(asc(e.id)).prepare(),
    };
  }

  /** A new deployment, with its first event. */
  insert(row: DeploymentRow, event: Omit<DeploymentEvent, "at">) {
    this.db.transaction((tx) => {
      tx.insert(schema.deployments).values(row).run();
      tx.insert(schema.deploymentEvents).values({ deploymentId: row.id, at: row.createdAt, ...event }).run();
    });
  }

  get(id: string): DeploymentRow | undefined {
    return this.prepared.get.get({ id });
  }

  byIds(ids: string[]): Map<string, DeploymentRow> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    return new Map(this.db.select().from(schema.deployments).where(inArray(schema.deployments.id, unique)).all().map((row) => [row.id, row]));
  }

  byPrefix(prefix: string, limit = 10): DeploymentRow[] {
    return this.db.select().from(schema.deployments).where(like(schema.deployments.id, likePrefix(prefix))).limit(limit).all();
  }

  /** Newest first. */
  named(name: string): DeploymentRow[] {
    return this.prepared.named.all({ name });
  }

  active(): DeploymentRow[] {
    return this.prepared.active.all();
  }

  /** Active ones and, without `all`, those stopped (last changed) since `endedSince`; newest first. */
  list(filter: { all?: boolean; endedSince: Date }): DeploymentRow[] {
    const t = schema.deployments;
    const query = this.db.select().from(t);
    const filtered = filter.all ? query : query.where(or(eq(t.status, "ACTIVE"), gte(t.updatedAt, filter.endedSince.toISOString())));
    return filtered.orderBy(desc(t.createdAt)).all();
  }

  /** Applies `patch`, and records `event` with it when one is given. */
  update(id: string, patch: DeploymentPatch, event?: Omit<DeploymentEvent, "at">, now = new Date()): DeploymentRow | undefined {
    const at = now.toISOString();
    return this.db.transaction((tx) => {
      tx.update(schema.deployments).set({ ...patch, updatedAt: at }).where(eq(schema.deployments.id, id)).run();
      if (event) tx.insert(schema.deploymentEvents).values({ deploymentId: id, at, ...event }).run();
      return tx.select().from(schema.deployments).where(eq(schema.deployments.id, id)).get();
    });
  }

  /** A scaling decision: an event, the deployment unchanged. */
  note(id: string, event: Omit<DeploymentEvent, "at">, now = new Date()) {
    this.db.insert(schema.deploymentEvents).values({ deploymentId: id, at: now.toISOString(), ...event }).run();
  }

  /** Oldest first. */
  events(id: string): DeploymentEvent[] {
    return this.prepared.events.all({ id });
  }

  /** Removes the deployment and its events (its replicas' records are removed by the caller). */
  remove(id: string) {
    this.db.delete(schema.deployments).where(eq(schema.deployments.id, id)).run();
  }
}
