import { Elysia, t } from "elysia";
import { ActivityReport, AdapterChange, readRunRequest, RunRequest, RunResponse, ServiceDetails, ServiceRecord, NEXT_CURSOR_HEADER } from "@svc/contracts";
import { operation, textAnswer } from "@svc/platform";
import type { ServicesService } from "./service";
import type { DeploymentsService } from "../deployments/service";
import { SERVICE_WORDS } from "../workloads/lookup";
import { ENGINE_ERRORS, runStatus, workloadDocs } from "../workloads/route-docs";
import { ActivityAnswer, AdapterQuery, ListQuery, LogsQuery, RefParams, RemoveQuery, RestartQuery } from "./model";

const tags = ["services"];
const docs = workloadDocs({ ...SERVICE_WORDS, field: "service", tags });

/** /api/services: run, list, inspect, stop, restart, remove and read the output of inference services. */
export function servicesController(services: ServicesService, deployments: Pick<DeploymentsService, "run">) {
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
        const request = readRunRequest(body);
        const result = request.scaling ? await deployments.run(request, request.scaling) : await services.run(request);
        runStatus(set, result.service);
        return result;
      },
      {
        body: RunRequest,
        ...docs.run("runService", RunResponse, { refused: "the model is of another task", conflicts: "or the profile changed schema (`profile_schema_changed`)" }),
      },
    )
    .get("/:ref", ({ params }) => services.details(params.ref), {
      params: RefParams,
      ...docs.onRef("getService", { summary: "Every field of a service, its phases and events", ok: { 200: ServiceDetails } }),
    })
    .post("/:ref/stop", ({ params }) => services.stop(params.ref), {
      params: RefParams,
      ...docs.onRef("stopService", { summary: "Stop a service and free its resources", ok: { 200: ServiceRecord }, engine: ENGINE_ERRORS, conflicts: "or the service is not live" }),
    })
    .post("/:ref/adapters", ({ params, body }) => services.addAdapter(params.ref, body.adapter), {
      params: RefParams,
      body: AdapterChange,
      ...docs.onRef("addServiceAdapter", {
        summary: "Serve one more LoRA adapter on a running service's model, without a restart (an event of the service)",
        ok: { 200: ServiceRecord },
        engine: { 400: "The adapter does not fit the model, or the engine as it was started (its rank, its kind); `field` names `adapter`.", 502: "The service refused to load it, or did not answer." },
        missing: "Or the adapter is not in the registry of the service's profile (`adapter_not_found`).",
        conflicts: "or it is not HEALTHY, serves the adapter already, was started without LoRA (vLLM, SGLang), or its container does not see the adapter's folder",
      }),
    })
    .delete("/:ref/adapters", ({ params, query }) => services.removeAdapter(params.ref, query.adapter), {
      params: RefParams,
      query: AdapterQuery,
      ...docs.onRef("removeServiceAdapter", {
        summary: "Stop serving a LoRA adapter on a service (at once while it runs; a stopped one starts without it), an event of the service",
        ok: { 200: ServiceRecord },
        engine: { 502: "The service refused to unload it, or did not answer." },
        missing: "Or the service does not serve that adapter.",
        conflicts: "or it is live but not HEALTHY",
      }),
    })
    .post(
      "/activity",
      ({ body }) => services.recordActivity(body),
      {
        body: ActivityReport,
        ...operation("reportServiceActivity", {
          summary: "When the gateway last passed a request to each service (the idle clocks of --idle-stop), and the requests it holds for each",
          description:
            "Sent by the gateway every few seconds for the services it passed requests to; clocks only move forward. Unknown ids are ignored. `inFlight`, when given, replaces the counts the scaler of deployments works from (a service absent from it holds none), and `waiting` the requests queued in the gateway for each deployment's model, which the scaler adds to them.",
          tags,
          ok: { 200: ActivityAnswer },
        }),
      },
    )
    .post("/:ref/restart", ({ params, query }) => services.restart(params.ref, { onDemand: query.onDemand }), {
      params: RefParams,
      query: RestartQuery,
      ...docs.onRef("restartService", {
        summary: "Start a stopped or failed service again with the same spec and id",
        ok: { 200: ServiceRecord },
        engine: ENGINE_ERRORS,
        missing: "Or its profile is gone.",
        conflicts: "or the service is still live, or onDemand is given for a service that is not on demand",
      }),
    })
    .delete("/:ref", ({ params, query }) => services.remove(params.ref, query.force ?? false), {
      params: RefParams,
      query: RemoveQuery,
      ...docs.onRef("deleteService", { summary: "Delete a service's record (a live one needs force)", ok: { 200: ServiceRecord }, engine: ENGINE_ERRORS, conflicts: "or the service is live and force is not set" }),
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
        ...docs.onRef("getServiceLogs", {
          summary: "The service's output (follow keeps the stream open)",
          ok: { 200: textAnswer("The output, as the engine keeps it; with follow, new output as it comes.") },
          engine: ENGINE_ERRORS,
          conflicts: "or the engine has not accepted the service yet",
        }),
      },
    );
}
