import { Elysia, t } from "elysia";
import { isDormant, requestsWait, ROUTES_MAX_WAIT_MS, SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { DeploymentRow, DeploymentStore } from "../db/deployment-store";
import { toServiceRecord } from "./records";
import { identityOf } from "../workloads/records";
import { serverOf } from "../engines/api-key";

/** A route's deployment part: which deployment a replica belongs to, its routing, and whether the scaler drains this replica. */
function deploymentOf(row: ServiceRow, deployment: DeploymentRow | undefined): ServiceRoute["deployment"] {
  if (!deployment) return undefined;
  return { id: deployment.id, name: deployment.name, routing: deployment.routing, draining: row.drainingSince !== null || deployment.status !== "ACTIVE" };
}

/** The routes as they are now: a stopped replica of a stopped deployment is left out (a request must not start it). */
function currentRoutes(store: ServiceStore, deployments: DeploymentStore): ServiceRoute[] {
  const rows = [...store.live(), ...store.dormantOnDemand()];
  const byId = deployments.byIds(rows.flatMap((row) => (row.deploymentId ? [row.deploymentId] : [])));
  const routed = rows.filter((row) => row.deploymentId === null || !isDormant(row.status) || byId.get(row.deploymentId)?.status === "ACTIVE");
  return routed.map((row) => {
    const record = toServiceRecord(row);
    const deployment = row.deploymentId === null ? undefined : deploymentOf(row, byId.get(row.deploymentId));
    return {
      ...identityOf(row),
      server: serverOf(row.runtime),
      url: record.url,
      apiKey: row.apiKey,
      createdAt: row.createdAt,
      onDemand: record.policies.onDemand,
      waits: requestsWait(record.policies),
      ...(deployment ? { deployment } : {}),
    };
  });
}

/** The routes as the answer's body, and its entity tag (the same list, the same tag). */
function snapshot(store: ServiceStore, deployments: DeploymentStore) {
  const body = JSON.stringify(currentRoutes(store, deployments));
  return { body, etag: `"${Bun.hash(body).toString(36)}"` };
}

/**
 * The live services, and the stopped ones a request starts again (--on-demand), with their
 * addresses and API keys, for the gateway's /v1 routing (internal route behind the internal
 * secret, not in the API document: it carries the keys). A caller that has the list (its ETag in
 * If-None-Match) may ask to wait up to `wait_ms` for it to change: the answer comes as soon as a
 * write to the services or deployments changes it, else 304 at the end of the wait (a long poll,
 * so the gateway's copy stays current without a look-up on any request's way).
 */
export function serviceRoutesController(store: ServiceStore, deployments: DeploymentStore) {
  return new Elysia({ name: "orchestrator/routes" }).get(
    SERVICE_ROUTES_PATH,
    async ({ request, query }) => {
      const known = request.headers.get("if-none-match");
      let now = snapshot(store, deployments);
      const deadline = Date.now() + (query.wait_ms ?? 0);
      if (now.etag === known && Date.now() < deadline) {
        // A caller that went away (the gateway stopping) ends the wait: a stopping orchestrator waits for its requests.
        const gone = new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
        while (now.etag === known && Date.now() < deadline && !request.signal.aborted) {
          let timer: Timer | undefined;
          await Promise.race([store.writes.next(), deployments.writes.next(), gone, new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
          clearTimeout(timer);
          now = snapshot(store, deployments);
        }
      }
      if (now.etag === known) return new Response(null, { status: 304, headers: { etag: now.etag } });
      return new Response(now.body, { headers: { "content-type": "application/json", etag: now.etag } });
    },
    { query: t.Object({ wait_ms: t.Optional(t.Integer({ minimum: 0, maximum: ROUTES_MAX_WAIT_MS })) }), detail: { hide: true } },
  );
}
