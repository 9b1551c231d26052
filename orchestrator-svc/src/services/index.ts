import { Elysia, t } from "elysia";
import { ActivityReport, readRunRequest, RunRequest, RunResponse, ServiceDetails, ServiceRecord, NEXT_CURSOR_HEADER } from "@svc/contracts";
import { operation, textAnswer } from "@svc/platform";
import type { ServicesService } from "./service";
import { ActivityAnswer, ListQuery, LogsQuery, RefParams, RemoveQuery, RestartQuery } from "./model";

const tags = ["services"];
const NO_SUCH = "No service has that id, id prefix or name (`not_found`).";
const AMBIGUOUS = "The id prefix matches several services (`ambiguous_id`)";
/** What the engine answers can say, as `services/engine-failure.ts` maps them. */
const ENGINE = {
  400: "The engine refused the request (e.g. Slurm's `invalid partition specified`).",
  502: "The engine (Docker Engine, Slurm over SSH) answered with an error.",
  503: "The engine, or another part of svc, is not answering.",
} as const;

/** /api/services: run, list, inspect, stop, restart, remove and read the output of inference services. */
export function servicesController(services: ServicesService) {
  return new Elysia({ name: "orchestrator/services", prefix: "/api/services" })
    .get(
      "",
      ({ query, set }) => {
        const { services: page, nextCursor } = services.list(query);
        if (nextCursor) set.headers[NEXT_CURSOR_HEADER] = nextCursor;
        return page;
      },
      {
        query: ListQuery,
        ...operation("listServices", {
          summary: "List services: live ones and those that ended in the last 24 hours (all: every one), a page at a time",
          description:
            "Live services first, then ended ones (STOPPED, FAILED, TIMEOUT), each newest first. A page holds `limit` services; when more follow, the answer's X-Next-Cursor header is the `cursor` of the next page.",
          tags,
          ok: { 200: t.Array(ServiceRecord) },
          okHeaders: { 200: { [NEXT_CURSOR_HEADER]: "Present when more services follow: pass it as `cursor` to get the next page." } },
          errors: { 400: "The cursor is not one this API gave." },
        }),
      },
    )
    .post(
      "",
      async ({ body, set }) => {
        const result = await services.run(readRunRequest(body));
        set.status = result.service ? 201 : 200;
        return result;
      },
      {
        body: RunRequest,
        ...operation("runService", {
          summary: "Run a service (svc run); dryRun only renders the start-up script",
          description: "201 with the new service's record; 200 for a dry run (`service` is null).",
          tags,
          ok: { 200: RunResponse, 201: RunResponse },
          errors: {
            400: "A value is not allowed (the message names the option and what it accepts), the model is of another task, or the engine refused the job.",
            404: "The profile, model or revision is not registered (`not_found`, `model_not_found`, `revision_not_found`).",
            409: "A live service already has that name (`conflict`), or the profile changed schema (`profile_schema_changed`).",
            502: ENGINE[502],
            503: ENGINE[503],
          },
        }),
      },
    )
    .get("/:ref", ({ params }) => services.details(params.ref), {
      params: RefParams,
      ...operation("getService", { summary: "Every field of a service, its phases and events", tags, ok: { 200: ServiceDetails }, errors: { 404: NO_SUCH, 409: `${AMBIGUOUS}.` } }),
    })
    .post("/:ref/stop", ({ params }) => services.stop(params.ref), {
      params: RefParams,
      ...operation("stopService", {
        summary: "Stop a service and free its resources",
        tags,
        ok: { 200: ServiceRecord },
        errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the service is not live (\`conflict\`).` },
      }),
    })
    .post(
      "/activity",
      ({ body }) => services.recordActivity(body),
      {
        body: ActivityReport,
        ...operation("reportServiceActivity", {
          summary: "When the gateway last passed a request to each service (the idle clocks of --idle-stop)",
          description: "Sent by the gateway every few seconds for the services it passed requests to; clocks only move forward. Unknown ids are ignored.",
          tags,
          ok: { 200: ActivityAnswer },
        }),
      },
    )
    .post("/:ref/restart", ({ params, query }) => services.restart(params.ref, { onDemand: query.onDemand }), {
      params: RefParams,
      query: RestartQuery,
      ...operation("restartService", {
        summary: "Start a stopped or failed service again with the same spec and id",
        tags,
        ok: { 200: ServiceRecord },
        errors: { ...ENGINE, 404: `${NO_SUCH} Or its profile is gone.`, 409: `${AMBIGUOUS}, or the service is still live, or onDemand is given for a service that is not on demand (\`conflict\`).` },
      }),
    })
    .delete("/:ref", ({ params, query }) => services.remove(params.ref, query.force ?? false), {
      params: RefParams,
      query: RemoveQuery,
      ...operation("deleteService", {
        summary: "Delete a service's record (a live one needs force)",
        tags,
        ok: { 200: ServiceRecord },
        errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the service is live and force is not set (\`conflict\`).` },
      }),
    })
    .get(
      "/:ref/logs",
      async ({ params, query }) =>
        new Response(await services.logs(params.ref, query.follow ?? false, query.tail), {
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
        }),
      {
        params: RefParams,
        query: LogsQuery,
        ...operation("getServiceLogs", {
          summary: "The service's output (follow keeps the stream open)",
          tags,
          ok: { 200: textAnswer("The output, as the engine keeps it; with follow, new output as it comes.") },
          errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the engine has not accepted the service yet (\`conflict\`).` },
        }),
      },
    );
}
