import type { CAC } from "cac";
import type { ServiceDetails } from "@svc/contracts";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { registerWorkloadDetails, SERVICE } from "../workloads";
import { formatPolicies } from "./policies";
import { AS_DEPLOYMENT } from "../deployments/alternative";
import { queueSection } from "./queue";

/** A reason on one line: a multi-line one (an exit with its last output) points to the full text below instead of ending in "last output:". */
function summary(reason: string): string {
  const [first, ...rest] = reason.split("\n");
  return rest.length === 0 ? first : `${first.replace(/:\s*$/, "")} (below)`;
}

export function formatDetails(d: ServiceDetails): string {
  const options = { ...d.job, ...d.textGeneration, ...d.speechRecognition };
  const fields: [string, unknown][] = [
    ["id", d.id],
    ["name", d.name],
    ["status", d.reason ? `${d.status} (${summary(d.reason)})` : d.status],
    ["image", d.image],
    ["model", `${d.model}@${d.revision}`],
    ...(d.adapters?.length ? ([["adapters", `${d.adapters.join(", ")} (LoRA, each a model of /v1)`]] as [string, unknown][]) : []),
    ["profile", d.profile],
    ["endpoint", d.url ?? "None (not known yet)"],
    ["api key", d.apiKeySet ? "required (Authorization: Bearer <key>)" : "none: anyone on this host can call it"],
    ["engine", `${d.engine} (${d.handle ?? "not accepted yet"})`],
    ["runtime", d.runtime],
    ["options", Object.keys(options).length ? Object.entries(options).map(([k, v]) => `${k}=${v}`).join(" ") : "none"],
    ["engine args", d.engineArgs.length ? d.engineArgs.join(" ") : "none"],
    ["policies", formatPolicies(d.policies)],
    ["last request", d.lastRequestAt],
    ["job ends", d.endsAt],
    ["successor", d.successor ? `${d.successor.phase}${d.successor.handle ? ` (${d.successor.phase === "draining" ? "old job " : "job "}${d.successor.handle.split(":")[0]})` : ""} since ${d.successor.since}` : null],
    ["mounts", d.mounts?.length ? `${d.mounts.join(", ")} (read-only)` : "none"],
    ["grace period", d.gracePeriod === undefined ? "none (STARTING until its health check answers)" : `${d.gracePeriod} s`],
    ["created", `${d.createdAt} by ${d.createdBy}`],
    ["updated", d.updatedAt],
    ["queued", d.phases.queued],
    ["starting", d.phases.starting],
    ["ready", d.phases.ready],
    ...(d.runningSeconds === undefined ? [] : ([["running", `${(d.runningSeconds / 3600).toFixed(2)} h${d.gpuHours === null || d.gpuHours === undefined ? "" : `, ${d.gpuHours} GPU-hours`}`]] as [string, unknown][])),
  ];
  const width = Math.max(...fields.map(([k]) => k.length));
  const lines = fields.map(([k, v]) => `${k.padEnd(width)}  ${v ?? "None"}`);
  const events = formatTable(["time", "from", "to", "reason"], d.events.map((e) => [e.at, e.from ?? "-", e.to, e.reason ? summary(e.reason) : ""]));
  const fullReason = d.reason?.includes("\n") ? `\n\nReason (${d.status}):\n${d.reason}` : "";
  return `${lines.join("\n")}\n\nEvents:\n${events}${fullReason}`;
}

export function registerDetails(cli: CAC, ctx: CliContext) {
  registerWorkloadDetails(
    cli,
    ctx,
    SERVICE,
    {
      usage: "details <service>",
      description: "Everything about a service (fields, options, phases, events, endpoint, its model's fair-share queue), or a deployment (bounds, replicas, scaling events, queue)",
      format: formatDetails,
      more: (client, details) => queueSection(client, details.model),
    },
    [AS_DEPLOYMENT],
  );
}
