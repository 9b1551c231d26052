import { Elysia } from "elysia";
import { AppInfo, ErrorBody, HealthReport } from "@svc/contracts";
import type { InternalClient, Settings } from "@svc/platform";
import { appInfo, healthReport } from "./service";

/** /api/info and /api/health: what this application is, and whether its parts answer. */
export function statusController(settings: Settings, client: InternalClient) {
  return new Elysia({ name: "gateway/status" })
    .get("/api/info", () => appInfo(settings, client), {
      response: { 200: AppInfo, 401: ErrorBody },
      detail: { summary: "Application version and settings", tags: ["app"] },
    })
    .get(
      "/api/health",
      async ({ set }) => {
        const report = await healthReport(client);
        if (report.status !== "ok") set.status = 503;
        return report;
      },
      {
        response: { 200: HealthReport, 503: HealthReport },
        detail: { summary: "State of each internal service (no authentication)", tags: ["app"], security: [] },
      },
    );
}
