import { Elysia } from "elysia";
import { AppInfo, HealthReport } from "@svc/contracts";
import { operation, type InternalClient, type Settings } from "@svc/platform";
import { appInfo, healthReport } from "./service";

const tags = ["app"];

/** /api/info and /api/health: what this application is, and whether its parts answer. */
export function statusController(settings: Settings, client: InternalClient) {
  return new Elysia({ name: "gateway/status" })
    .get("/api/info", () => appInfo(settings, client), {
      ...operation("getInfo", { summary: "Application version and settings", tags, ok: { 200: AppInfo } }),
    })
    .get(
      "/api/health",
      async ({ set }) => {
        const report = await healthReport(client);
        if (report.status !== "ok") set.status = 503;
        return report;
      },
      {
        ...operation("getHealth", {
          summary: "State of each internal service (no authentication)",
          tags,
          public: true,
          ok: { 200: HealthReport, 503: HealthReport },
          okDescriptions: { 200: "Every part answers (`status: ok`).", 503: "A part is not answering (`status: degraded`); the report says which." },
        }),
      },
    );
}
