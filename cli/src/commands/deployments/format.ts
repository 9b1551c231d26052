import { formatDuration, type DeploymentDetails, type DeploymentRecord } from "@svc/contracts";
import { formatTable } from "../../output/table";

/** "2 healthy, 1 coming, 0..3": a deployment's replicas now and its bounds. */
export function replicaCounts(d: DeploymentRecord): string {
  return `${d.healthy} healthy${d.coming ? `, ${d.coming} coming` : ""}, ${d.min}..${d.max}`;
}

/** `svc details DEPLOYMENT`: its fields, its replicas, and its scaling events (oldest first, as the API gives them). */
export function formatDeploymentDetails(d: DeploymentDetails): string {
  const fields: [string, string][] = [
    ["id", d.id],
    ["deployment", d.name],
    ["status", d.status === "ACTIVE" ? "ACTIVE (the scaler keeps it between its bounds)" : "STOPPED (no replica runs; 'svc scale' starts it again)"],
    ["model", `${d.model}@${d.revision}`],
    ["profile", d.profile],
    ["engine", d.engine],
    ["replicas", `${d.min}..${d.max} (now ${d.healthy} healthy, ${d.coming} coming)`],
    ["in flight", `${d.inFlight} request${d.inFlight === 1 ? "" : "s"}`],
    ["target", `${d.targetInflight} in flight per replica`],
    ["scale up after", `${formatDuration(d.scaleUpAfterSeconds)} above the target`],
    ["scale down after", `${formatDuration(d.scaleDownAfterSeconds)} without a request`],
    ["routing", d.routing],
    ["created", `${d.createdAt} by ${d.createdBy}`],
    ["updated", d.updatedAt],
  ];
  const width = Math.max(...fields.map(([k]) => k.length));
  const lines = fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
  const replicas = d.replicas.length
    ? formatTable(["service id", "name", "status", "port", "updated"], d.replicas.map((r) => [r.id.slice(0, 13), r.name, r.status, r.port, r.updatedAt]))
    : "none";
  const events = d.events.length ? formatTable(["time", "from", "to", "reason"], d.events.map((e) => [e.at, e.from, e.to, e.message])) : "none yet";
  return `${lines.join("\n")}\n\nReplicas:\n${replicas}\n\nEvents:\n${events}`;
}
