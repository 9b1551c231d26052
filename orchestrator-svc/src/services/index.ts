import { Elysia, t } from "elysia";
import { ErrorBody, RunRequest, RunResponse, ServiceDetails, ServiceRecord } from "@svc/contracts";
import type { ServicesService } from "./service";
import { ListQuery, LogsQuery, RefParams, RemoveQuery } from "./model";

const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody };
const tags = ["services"];

/** /api/services: run, list, inspect, stop, restart, remove and read the output of inference services. */
export function servicesController(services: ServicesService) {
  return new Elysia({ name: "orchestrator/services", prefix: "/api/services" })
    .get("/", ({ query }) => services.list(query), {
      query: ListQuery,
      response: { 200: t.Array(ServiceRecord), ...errors },
      detail: { summary: "List services (live ones unless all or a status is given)", tags },
    })
    .post(
      "/",
      async ({ body, set }) => {
        const result = await services.run(body);
        set.status = result.service ? 201 : 200;
        return result;
      },
      { body: RunRequest, response: { 200: RunResponse, 201: RunResponse, ...errors }, detail: { summary: "Run a service (svc run); dryRun only renders the start-up script", tags } },
    )
    .get("/:ref", ({ params }) => services.details(params.ref), {
      params: RefParams,
      response: { 200: ServiceDetails, ...errors },
      detail: { summary: "Every field of a service, its phases and events", tags },
    })
    .post("/:ref/stop", ({ params }) => services.stop(params.ref), {
      params: RefParams,
      response: { 200: ServiceRecord, ...errors },
      detail: { summary: "Stop a service and free its resources", tags },
    })
    .post("/:ref/restart", ({ params }) => services.restart(params.ref), {
      params: RefParams,
      response: { 200: ServiceRecord, ...errors },
      detail: { summary: "Start a stopped or failed service again with the same spec and id", tags },
    })
    .delete("/:ref", ({ params, query }) => services.remove(params.ref, query.force ?? false), {
      params: RefParams,
      query: RemoveQuery,
      response: { 200: ServiceRecord, ...errors },
      detail: { summary: "Delete a service's record (a live one needs force)", tags },
    })
    .get(
      "/:ref/logs",
      async ({ params, query }) =>
        new Response(await services.logs(params.ref, query.follow ?? false, query.tail), {
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
        }),
      { params: RefParams, query: LogsQuery, detail: { summary: "The service's output (follow keeps the stream open)", tags } },
    );
}
