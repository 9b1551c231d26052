import { Elysia } from "elysia";
import { UsageQuery, UsageReport } from "@svc/contracts";
import { operation } from "@svc/platform";
import { usageReport, type UsageSources } from "./service";

/** /api/usage: what /v1 served, per key, model or service, per day and hour, and each key against its limits (svc usage). */
export function usageController(sources: UsageSources) {
  return new Elysia({ name: "gateway/usage", normalize: false }).get("/api/usage", ({ query }) => usageReport(sources, query), {
    query: UsageQuery,
    ...operation("getUsage", {
      summary: "Requests and tokens through /v1 per key, model or service, per day and hour; each key against its limits and budgets; the services' running time",
      tags: ["usage"],
      ok: { 200: UsageReport },
      errors: { 503: "orchestrator-svc, which knows the services' running time, is not answering (`service_unavailable`)." },
    }),
  });
}
