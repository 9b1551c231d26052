import { Elysia } from "elysia";
import { isDormant, requestsWait, SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
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

/**
 * The live services, and the stopped ones a request starts again (--on-demand), with their addresses and API keys, for the gateway's /v1 routing (internal
 * route behind the internal secret, not in the API document: it carries the keys). A stopped
 * replica of a stopped deployment is left out: a request must not start it.
 */
export function serviceRoutesController(store: ServiceStore, deployments: DeploymentStore) {
  return new Elysia({ name: "orchestrator/routes" }).get(
    SERVICE_ROUTES_PATH,
    (): ServiceRoute[] => {
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
          ...(record.adapters ? { adapters: record.adapters } : {}),
        };
      });
    },
    { detail: { hide: true } },
  );
}
