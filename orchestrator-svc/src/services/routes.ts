import { Elysia } from "elysia";
import { isDormant, requestsWait, SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { DeploymentRow, DeploymentStore } from "../db/deployment-store";
import { toServiceRecord } from "./records";
import { identityOf } from "../workloads/records";
import { serverOf } from "../engines/api-key";
import { defaultTargetInflight } from "../deployments/records";

/** A route's deployment part: which deployment a replica belongs to, its routing, and whether the scaler drains this replica. */
function deploymentOf(row: ServiceRow, deployment: DeploymentRow | undefined): ServiceRoute["deployment"] {
  if (!deployment) return undefined;
  return { id: deployment.id, name: deployment.name, routing: deployment.routing, draining: row.drainingSince !== null || deployment.status !== "ACTIVE" };
}

/** Requests a service takes at once: its deployment's target, else its engine's concurrency (the gateway queues requests past it). */
const capacityOf = (row: ServiceRow, engineArgs: string[], deployment: DeploymentRow | undefined) => deployment?.targetInflight ?? defaultTargetInflight(row.runtime, engineArgs);

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
        const deploymentRow = row.deploymentId === null ? undefined : byId.get(row.deploymentId);
        const deployment = deploymentOf(row, deploymentRow);
        return {
          ...identityOf(row),
          server: serverOf(row.runtime),
          url: record.url,
          apiKey: row.apiKey,
          createdAt: row.createdAt,
          onDemand: record.policies.onDemand,
          waits: requestsWait(record.policies),
          capacity: capacityOf(row, record.engineArgs, deploymentRow),
          ...(deployment ? { deployment } : {}),
          ...(record.adapters ? { adapters: record.adapters } : {}),
        };
      });
    },
    { detail: { hide: true } },
  );
}
