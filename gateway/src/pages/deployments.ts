import { Elysia, t } from "elysia";
import { parseDuration, readReplicaRange, type DeploymentDetails, type DeploymentRecord, type ScaleRequest } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { deploymentActionPage, deploymentDetailsPage, deploymentPanel, serviceErrorPage, type DeploymentAction, type ScaleFormValues } from "@svc/ui";
import { fingerprint, orchestratorDown } from "./services";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const ActionParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }), action: t.String({ maxLength: 32 }) });
const ACTIONS: readonly string[] = ["stop", "remove"];
const text = (maxLength: number) => t.Optional(t.String({ maxLength }));
const ScaleForm = t.Object(
  { replicas: text(16), targetInflight: text(16), scaleUpAfter: text(32), scaleDownAfter: text(32), routing: text(16) },
  { additionalProperties: true },
);

/**
 * The scale form's text → a ScaleRequest of what differs from `current` (the form shows every value,
 * so an unchanged field is left out and the event names only real changes), or what to fix.
 */
export function scaleRequest(values: ScaleFormValues, current?: DeploymentRecord): { request: ScaleRequest } | { error: string } {
  const request: ScaleRequest = {};
  const replicas = values.replicas?.trim();
  if (replicas) {
    const range = readReplicaRange(replicas);
    if ("error" in range) return { error: `${range.error}.` };
    if (range.min !== current?.min || range.max !== current?.max) request.replicas = replicas;
  }
  const target = values.targetInflight?.trim();
  if (target) {
    if (!/^\d+$/.test(target) || Number(target) < 1) return { error: `Target in flight "${target}": write a whole number of requests, 1 or more.` };
    if (Number(target) !== current?.targetInflight) request.targetInflight = Number(target);
  }
  const up = values.scaleUpAfter?.trim();
  if (up && parseDuration(up) !== current?.scaleUpAfterSeconds) request.scaleUpAfter = up;
  const down = values.scaleDownAfter?.trim();
  if (down && parseDuration(down) !== current?.scaleDownAfterSeconds) request.scaleDownAfter = down;
  const routing = values.routing?.trim();
  if (routing !== undefined && routing !== "" && routing !== "least-busy" && routing !== "prefix") return { error: `Routing "${routing}": choose least-busy or prefix.` };
  if (routing && routing !== current?.routing) request.routing = routing;
  if (Object.keys(request).length === 0 && current?.status === "ACTIVE") return { error: "Nothing to change: edit the replicas or another field first." };
  return { request };
}

/**
 * A deployment's page (bounds, counts, replicas, events newest first), its panel that htmx polls
 * every second, the scale form (PATCH /api/deployments/{ref} through the client), and stop / remove,
 * each behind a confirmation page with a plain POST form.
 */
export function deploymentPages(client: SvcClient, session: boolean) {
  const page = (request: Request, body: string, status = 200) => new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });

  const failure = (request: Request, error: unknown) => {
    if (error instanceof ApiError) {
      const title = error.status === 404 ? "Deployment not found" : "Deployment unavailable";
      return page(request, serviceErrorPage({ title, message: error.message, session }), error.status);
    }
    return page(request, serviceErrorPage({ title: "Deployments unavailable", message: orchestratorDown.replace("this page tries again every second", "reload in a few seconds"), session }), 503);
  };

  const panelVersion = (d: DeploymentDetails) => fingerprint(deploymentPanel(d, "").value);
  const detailsPage = (d: DeploymentDetails, extra: { notices?: string[]; scale?: ScaleFormValues; scaleError?: string } = {}) =>
    deploymentDetailsPage({ deployment: d, version: panelVersion(d), session, ...extra });

  return new Elysia({ name: "gateway/pages/deployments" })
    .get(
      "/deployments/:id",
      async ({ request, params, query }) => {
        try {
          const d = await client.deployments.get(params.id);
          const notices = query.launched ? [`Launched deployment ${d.name}: ${d.min}..${d.max} replicas.`] : query.done ? [query.done === "stop" ? `Stopping ${d.name}: its replicas drain, then stop.` : `Scaled ${d.name}.`] : [];
          return page(request, detailsPage(d, { notices }));
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: IdParams, query: t.Object({ launched: text(8), done: text(16) }, { additionalProperties: true }), detail: { hide: true } },
    )
    .get(
      "/deployments/:id/status",
      async ({ params, query }) => {
        try {
          const d = await client.deployments.get(params.id);
          const version = panelVersion(d);
          if (query.v === version) return new Response(null, { status: 204 });
          return new Response(deploymentPanel(d, version).value, { headers: htmlHeaders });
        } catch (error) {
          const message = error instanceof ApiError ? error.message : orchestratorDown;
          return new Response(
            `<section class="card" id="deployment-status" hx-get="/deployments/${encodeURIComponent(params.id)}/status" hx-trigger="every 1s" hx-swap="outerHTML"><p class="error" role="alert">${Bun.escapeHTML(message)}</p></section>`,
            { headers: htmlHeaders },
          );
        }
      },
      { params: IdParams, query: t.Object({ v: text(64) }, { additionalProperties: true }), detail: { hide: true } },
    )
    .post(
      "/deployments/:id/scale",
      async ({ request, params, body }) => {
        let d: DeploymentDetails;
        try {
          d = await client.deployments.get(params.id);
        } catch (error) {
          return failure(request, error);
        }
        const values = (body ?? {}) as ScaleFormValues;
        const parsed = scaleRequest(values, d);
        if ("error" in parsed) return page(request, detailsPage(d, { scale: values, scaleError: parsed.error }), 400);
        try {
          await client.deployments.scale(d.id, parsed.request);
          return new Response(null, { status: 303, headers: { location: `/deployments/${d.id}?done=scale` } });
        } catch (error) {
          if (!(error instanceof ApiError)) return failure(request, error);
          return page(request, detailsPage(d, { scale: values, scaleError: error.message }), error.status);
        }
      },
      { params: IdParams, body: t.Optional(ScaleForm), detail: { hide: true } },
    )
    .get(
      "/deployments/:id/:action",
      async ({ request, params }) => {
        if (!ACTIONS.includes(params.action)) return page(request, serviceErrorPage({ title: "Page not found", message: `A deployment has no page named ${params.action}: its actions are stop and remove.`, session }), 404);
        try {
          return page(request, deploymentActionPage({ deployment: await client.deployments.get(params.id), action: params.action as DeploymentAction, session }));
        } catch (error) {
          return failure(request, error);
        }
      },
      { params: ActionParams, detail: { hide: true } },
    )
    .post(
      "/deployments/:id/:action",
      async ({ request, params }) => {
        if (!ACTIONS.includes(params.action)) return page(request, serviceErrorPage({ title: "Page not found", message: `A deployment has no page named ${params.action}: its actions are stop and remove.`, session }), 404);
        const action = params.action as DeploymentAction;
        let d: DeploymentDetails;
        try {
          d = await client.deployments.get(params.id);
        } catch (error) {
          return failure(request, error);
        }
        try {
          if (action === "stop") {
            await client.deployments.stop(d.id);
            return new Response(null, { status: 303, headers: { location: `/deployments/${d.id}?done=stop` } });
          }
          await client.deployments.remove(d.id, { force: true });
          return new Response(null, { status: 303, headers: { location: `/services?status=all&kind=deployment&removed=${encodeURIComponent(d.name)}` } });
        } catch (error) {
          if (!(error instanceof ApiError)) return failure(request, error);
          return page(request, deploymentActionPage({ deployment: d, action, session, error: error.message }), error.status);
        }
      },
      { params: ActionParams, detail: { hide: true } },
    );
}
