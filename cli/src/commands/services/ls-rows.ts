import { groupReplicas, isLive, type DeploymentRecord, type ServiceRecord } from "@svc/contracts";
import type { Cell } from "../../output/table";
import { relativeAge } from "../../output/age";
import { replicaCounts } from "../deployments/format";

export const LS_HEADERS = ["service id", "image", "model", "created", "updated", "status", "port", "name", "profile"];

/** One row of `svc ls`, and whether it shows something that has ended (dimmed on a terminal). */
export interface LsRow {
  cells: Cell[];
  ended: boolean;
}

/** The model, and compactly the LoRA adapters served on it: `acme/llama +2 adapters`. */
const withAdapters = (s: ServiceRecord) => (s.adapters?.length ? `${s.model} +${s.adapters.length} adapter${s.adapters.length === 1 ? "" : "s"}` : s.model);

const serviceRow = (s: ServiceRecord, indent: string): LsRow => ({
  cells: [`${indent}${s.id.slice(0, 13)}`, s.image, withAdapters(s), relativeAge(s.createdAt), relativeAge(s.updatedAt), s.status, s.port, s.name, s.profile],
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
  return groupReplicas(services).flatMap((entry) => {
    if ("service" in entry) return [serviceRow(entry.service, "")];
    const deployment = byId.get(entry.deployment);
    const head = deployment ? deploymentRow(deployment) : { cells: [entry.deployment.slice(0, 13), "deployment", entry.replicas[0].model, "", "", "", "", "", entry.replicas[0].profile], ended: false };
    return [head, ...entry.replicas.map((replica) => serviceRow(replica, "  "))];
  });
}
