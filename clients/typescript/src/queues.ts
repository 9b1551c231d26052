import type { QueueQuery, QueueReport } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/queues: requests waiting in the gateway for saturated models (fair share), per key. */
export class QueuesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  /** Every model that had to queue a request, with the fair-share settings (`model`: only that one). */
  report(query: QueueQuery = {}): Promise<QueueReport> {
    return this.client.call("GET /api/queues", { query });
  }
}
