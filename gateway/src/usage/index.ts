import { Elysia } from "elysia";
import type { SvcClient } from "@svc/client";
import { UsageQuery, UsageReport } from "@svc/contracts";
import { operation } from "@svc/platform";
import { usageReport } from "./service";
import type { UsageStore } from "./store";

/** /api/usage: what /v1 served, per key, model or service, and per day (svc usage). */
export function usageController(store: UsageStore, client: SvcClient) {
  return new Elysia({ name: "gateway/usage", normalize: false }).get("/api/usage", ({ query }) => usageReport(store, client, query), {
    query: UsageQuery,
    ...operation("getUsage", {
      summary: "Requests and tokens through /v1 per key, model or service, per day; the services' running time",
      tags: ["usage"],
      ok: { 200: UsageReport },
      errors: { 503: "orchestrator-svc, which knows the services' running time, is not answering (`service_unavailable`)." },
    }),
  });
}
