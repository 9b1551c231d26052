import { Elysia } from "elysia";
import { isBatchApiPath } from "./routes";

/** OpenAI's Files and Batch API on /v1 (files, batches over svc's batch jobs): answered before the /v1 router, which routes by model. */
export function batchApiController(handle: (request: Request) => Promise<Response>) {
  return new Elysia({ name: "gateway/batch-api" }).onRequest(({ request }) => {
    if (isBatchApiPath(new URL(request.url).pathname)) return handle(request);
  });
}
