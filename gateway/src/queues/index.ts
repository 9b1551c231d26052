import { Elysia } from "elysia";
import { QueueQuery, QueueReport } from "@svc/contracts";
import { operation } from "@svc/platform";

/** /api/queues: the fair-share queue of each saturated model, per key (svc details, the service's page). */
export function queuesController(report: (model?: string) => QueueReport) {
  return new Elysia({ name: "gateway/queues", normalize: false }).get("/api/queues", ({ query }) => report(query.model), {
    query: QueueQuery,
    ...operation("getQueues", {
      summary: "Requests waiting in the gateway for a saturated model, per key and tier, with the fair-share settings",
      description:
        "A /v1 request for a model whose HEALTHY replicas all hold their capacity in flight waits in its key's queue, taken by tier and then in turn across keys by weight (docs/fair-share.md). Lists every model that had to queue a request since the gateway started.",
      tags: ["usage"],
      ok: { 200: QueueReport },
    }),
  });
}
