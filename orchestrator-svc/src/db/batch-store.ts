import { LIVE_BATCH_STATUSES, type BatchStatus } from "@svc/contracts";
import * as schema from "./schema";
import { WorkloadStore } from "./workload-store";

export type BatchRow = typeof schema.batches.$inferSelect;
export type NewBatchRow = typeof schema.batches.$inferInsert;
/** Fields a transition may change besides the status. */
export type BatchPatch = Partial<Pick<BatchRow, "reason" | "handle" | "allocations" | "progress">>;

/** The orchestrator's batch jobs and their event history (same SQLite file as the services, own tables). */
export class BatchStore extends WorkloadStore<BatchRow, NewBatchRow, BatchStatus, BatchPatch> {
  constructor(file: string) {
    super(file, { table: schema.batches, events: schema.batchEvents, live: LIVE_BATCH_STATUSES });
  }
}
