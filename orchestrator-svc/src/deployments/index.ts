import { Elysia, t } from "elysia";
import { AdapterChange, DeploymentDetails, DeploymentRecord, ScaleRequest } from "@svc/contracts";
import { AdapterQuery } from "../services/model";
import { operation } from "@svc/platform";
import { ENGINE_ERRORS, workloadDocs } from "../workloads/route-docs";
import { DEPLOYMENT_WORDS, type DeploymentsService } from "./service";
import { DeploymentListQuery, DeploymentRefParams, DeploymentRemoveQuery } from "./model";

// Documented with the services: a deployment's replicas are services, made by POST /api/services with `scaling`.
const tags = ["services"];
const docs = workloadDocs({ ...DEPLOYMENT_WORDS, field: "deployment", tags });

/** /api/deployments: the replica sets made by `svc run --replicas`: list, inspect, scale, stop, remove. */
export function deploymentsController(deployments: DeploymentsService) {
  return new Elysia({ name: "orchestrator/deployments", prefix: "/api/deployments" })
    .get("", ({ query }) => deployments.list(query), {
      query: DeploymentListQuery,
      ...operation("listDeployments", {
        summary: "List deployments (svc run --replicas): active ones and those stopped in the last 24 hours (all: every one)",
        description: "Newest first, each with its bounds, its replicas by state now and the requests in flight the gateway last reported. Their replicas are listed with the services.",
        tags,
        ok: { 200: t.Array(DeploymentRecord) },
      }),
    })
    .get("/:ref", ({ params }) => deployments.details(params.ref), {
      params: DeploymentRefParams,
      ...docs.onRef("getDeployment", { summary: "A deployment, its replicas (services) and its scaling events, oldest first", ok: { 200: DeploymentDetails } }),
    })
    .patch("/:ref", ({ params, body }) => deployments.scale(params.ref, body), {
      params: DeploymentRefParams,
      body: ScaleRequest,
      ...docs.onRef("scaleDeployment", {
        summary: "Change a deployment's bounds or scaling (svc scale); a stopped one becomes ACTIVE again",
        ok: { 200: DeploymentRecord },
        engine: { 400: "A value is not allowed (the message says what to fix, e.g. MIN above MAX)." },
      }),
    })
    .post("/:ref/stop", ({ params }) => deployments.stop(params.ref), {
      params: DeploymentRefParams,
      ...docs.onRef("stopDeployment", {
        summary: "Stop a deployment: scaling off, every replica drained (no request cut) and stopped",
        ok: { 200: DeploymentRecord },
        engine: ENGINE_ERRORS,
        conflicts: "or it is already stopped",
      }),
    })
    .post("/:ref/adapters", ({ params, body }) => deployments.changeAdapter(params.ref, body.adapter, true), {
      params: DeploymentRefParams,
      body: AdapterChange,
      ...docs.onRef("addDeploymentAdapter", {
        summary: "Serve one more LoRA adapter on every replica of a deployment, and on those to come, without a restart (an event of the deployment)",
        ok: { 200: DeploymentRecord },
        engine: { 400: "The adapter does not fit the model, or the engine as it was started; `field` names `adapter`.", 502: "A replica refused to load it, or did not answer." },
        missing: "Or the adapter is not in the registry of the deployment's profile (`adapter_not_found`).",
        conflicts: "or a replica is on its way up or down, the deployment serves the adapter already, or its engine was started without LoRA",
      }),
    })
    .delete("/:ref/adapters", ({ params, query }) => deployments.changeAdapter(params.ref, query.adapter, false), {
      params: DeploymentRefParams,
      query: AdapterQuery,
      ...docs.onRef("removeDeploymentAdapter", {
        summary: "Stop serving a LoRA adapter on every replica of a deployment (at once on those running), an event of the deployment",
        ok: { 200: DeploymentRecord },
        engine: { 502: "A replica refused to unload it, or did not answer." },
        missing: "Or the deployment does not serve that adapter.",
        conflicts: "or a replica is on its way up or down",
      }),
    })
    .delete("/:ref", ({ params, query }) => deployments.remove(params.ref, query.force ?? false), {
      params: DeploymentRefParams,
      query: DeploymentRemoveQuery,
      ...docs.onRef("deleteDeployment", {
        summary: "Delete a deployment and its replicas' records (a live one needs force: its replicas are stopped first)",
        ok: { 200: DeploymentRecord },
        engine: ENGINE_ERRORS,
        conflicts: "or the deployment is live and force is not set",
      }),
    });
}
