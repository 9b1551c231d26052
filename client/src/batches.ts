import type { BatchDetails, BatchRecord, BatchRunRequest, BatchRunResponse, BatchStatus } from "@svc/contracts";
import type { SvcClient } from "./client";

/**
 * /api/batches: `client.batches.run(request)`, `.list()`, `.get(ref)`, `.stop(ref)`,
 * `.resume(ref)`, `.remove(ref)`. A ref is a batch job id, a unique prefix of it, or its name.
 */
export class BatchesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  /** Starts a batch job (or, with dryRun, only renders its start-up script). */
  run(request: BatchRunRequest): Promise<BatchRunResponse> {
    return this.client.call("POST /api/batches", { body: request });
  }

  /** Live jobs with their progress; `all` adds stopped, completed and failed ones. */
  list(filter: { status?: BatchStatus; all?: boolean } = {}): Promise<BatchRecord[]> {
    return this.client.call("GET /api/batches", { query: { status: filter.status, all: filter.all || undefined } });
  }

  /** The job with each input's status and its failures. */
  get(ref: string): Promise<BatchDetails> {
    return this.client.call("GET /api/batches/{ref}", { params: { ref } });
  }

  stop(ref: string): Promise<BatchRecord> {
    return this.client.call("POST /api/batches/{ref}/stop", { params: { ref } });
  }

  /** Starts it again; inputs with an output are skipped, failed ones run again with retryFailed. */
  resume(ref: string, options: { retryFailed?: boolean } = {}): Promise<BatchRecord> {
    return this.client.call("POST /api/batches/{ref}/resume", { params: { ref }, body: { retryFailed: options.retryFailed || undefined } });
  }

  /** Deletes the record (the outputs stay); `force` stops a live job first. */
  remove(ref: string, options: { force?: boolean } = {}): Promise<BatchRecord> {
    return this.client.call("DELETE /api/batches/{ref}", { params: { ref }, query: { force: options.force || undefined } });
  }
}
