import type { SvcClient } from "@svc/client";
import type { DeploymentDetails, ServiceStatus } from "@svc/contracts";
import { eventually } from "./svc-app";

/** Replica counts of a deployment: by the API's fields (healthy, coming) and by each replica's status. */
export interface ReplicaCounts {
  healthy?: number;
  coming?: number;
  /** Replicas with each status (e.g. { STOPPED: 3 }); statuses not given are not checked. */
  statuses?: Partial<Record<ServiceStatus, number>>;
}

const countsOf = (details: DeploymentDetails) => {
  const statuses: Partial<Record<ServiceStatus, number>> = {};
  for (const replica of details.replicas) statuses[replica.status] = (statuses[replica.status] ?? 0) + 1;
  return { healthy: details.healthy, coming: details.coming, statuses };
};

const matches = (details: DeploymentDetails, want: ReplicaCounts) => {
  const have = countsOf(details);
  return (
    (want.healthy === undefined || have.healthy === want.healthy) &&
    (want.coming === undefined || have.coming === want.coming) &&
    Object.entries(want.statuses ?? {}).every(([status, count]) => (have.statuses[status as ServiceStatus] ?? 0) === count)
  );
};

/**
 * Resolves with the deployment's details once its replica counts are `want` (checked every 50 ms,
 * for up to `ms`). On timeout the error says what the counts were and the deployment's events.
 */
export async function waitForReplicas(client: SvcClient, ref: string, want: ReplicaCounts, ms: number): Promise<DeploymentDetails> {
  let last: DeploymentDetails | undefined;
  try {
    await eventually(
      async () => {
        last = await client.deployments.get(ref);
        return matches(last, want);
      },
      ms,
      `deployment ${ref} to have ${JSON.stringify(want)}`,
    );
  } catch (error) {
    const seen = last ? `${JSON.stringify(countsOf(last))}; events: ${last.events.map((e) => e.message).join(" | ")}` : "no answer";
    throw new Error(`${(error as Error).message} (last seen: ${seen})`);
  }
  return last!;
}
