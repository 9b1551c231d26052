import type { BatchRecord, BatchStatus } from "@svc/contracts";
import type { SvcClient } from "./client";
import { WorkloadsApi } from "./workloads";

/**
 * /api/batches: `client.batches.run(request)`, `.list()`, `.get(ref)`, `.stop(ref)`,
 * `.resume(ref)`, `.remove(ref)` (`get` gives each input's status and the failures; `remove` leaves
 * the outputs). A ref is a batch job id, a unique prefix of it, or its name.
 */
export class BatchesApi extends WorkloadsApi<"/api/batches"> {
  constructor(protected override readonly client: Pick<SvcClient, "call" | "callStream">) {
    super(client, "/api/batches");
  }

  /** Live jobs with their progress; `all` adds stopped, completed and failed ones. */
  list(filter: { status?: BatchStatus; all?: boolean } = {}): Promise<BatchRecord[]> {
    return this.client.call("GET /api/batches", { query: { status: filter.status, all: filter.all || undefined } });
  }

  /** An openai job's results file as it is now (JSONL in OpenAI's batch output format). */
  async results(ref: string): Promise<string> {
    return (await this.client.callStream("GET /api/batches/{ref}/results", { params: { ref } })).text();
  }

  /** Starts it again; inputs with an output are skipped, failed ones run again with retryFailed. */
  resume(ref: string, options: { retryFailed?: boolean } = {}): Promise<BatchRecord> {
    return this.client.call("POST /api/batches/{ref}/resume", { params: { ref }, body: { retryFailed: options.retryFailed || undefined } });
  }
}
