import { isLive, type DeploymentRecord, type ServiceRecord } from "@svc/contracts";
import type { Cell } from "../../output/table";
import { relativeAge } from "../../output/age";
import { replicaCounts } from "../deployments/format";

export const LS_HEADERS = ["service id", "image", "model", "created", "updated", "status", "port", "name", "profile"];

/** One row of `svc ls`, and whether it shows something that has ended (dimmed on a terminal). */
export interface LsRow {
  cells: Cell[];
  ended: boolean;
}

const serviceRow = (s: ServiceRecord, indent: string): LsRow => ({
  cells: [`${indent}${s.id.slice(0, 13)}`, s.image, s.model, relativeAge(s.createdAt), relativeAge(s.updatedAt), s.status, s.port, s.name, s.profile],
  ended: !isLive(s.status),
});

const deploymentRow = (d: DeploymentRecord): LsRow => ({
  cells: [d.id.slice(0, 13), "deployment", d.model, relativeAge(d.createdAt), relativeAge(d.updatedAt), `${d.status} (${replicaCounts(d)})`, "", d.name, d.profile],
  ended: d.status === "STOPPED",
});

/**
 * The rows of one page of `svc ls`: a service on its own as today; the replicas of a deployment
 * indented under a row for the deployment, which stands where its first replica of the page would.
 * `deployments` are those the page's replicas belong to (one not among them still gets its rows,
 * under its id). Every deployment keeps at least one replica record, so each shows in the listing.
 */
export function lsRows(services: ServiceRecord[], deployments: DeploymentRecord[]): LsRow[] {
  const byId = new Map(deployments.map((d) => [d.id, d]));
  const replicas = new Map<string, ServiceRecord[]>();
  for (const s of services) if (s.deployment) replicas.set(s.deployment, [...(replicas.get(s.deployment) ?? []), s]);
  const rows: LsRow[] = [];
  for (const s of services) {
    if (!s.deployment) {
      rows.push(serviceRow(s, ""));
      continue;
    }
    const group = replicas.get(s.deployment);
    if (!group) continue; // its group is written already
    replicas.delete(s.deployment);
    const deployment = byId.get(s.deployment);
    rows.push(deployment ? deploymentRow(deployment) : { cells: [s.deployment.slice(0, 13), "deployment", s.model, "", "", "", "", "", s.profile], ended: false });
    rows.push(...group.map((replica) => serviceRow(replica, "  ")));
  }
  return rows;
}
