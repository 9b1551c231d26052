import type { BatchDetails, BatchRecord } from "@svc/contracts";
import { formatTable } from "../../output/table";

const BAR_WIDTH = 10;

/** `12/40 ███░░░░░░░ 1 failed`: inputs with an output (or a failure) of those seen so far. */
export function progressCell(record: Pick<BatchRecord, "progress">): string {
  const p = record.progress;
  if (!p) return "-";
  const settled = p.done + p.failed;
  const filled = p.total === 0 ? 0 : Math.round((settled / p.total) * BAR_WIDTH);
  return `${p.done}/${p.total} ${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}${p.failed ? ` ${p.failed} failed` : ""}`;
}

export function etaCell(record: Pick<BatchRecord, "progress" | "status">): string {
  const p = record.progress;
  if (!p || record.status !== "RUNNING") return "-";
  if (p.etaSeconds === null) return "?";
  const s = p.etaSeconds;
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.round(s / 60)}m` : `${(s / 3600).toFixed(1)}h`;
}

/** The model a job runs: with an adapter, `ADAPTER on BASE`. */
export const modelCell = (record: Pick<BatchRecord, "model" | "adapter">) => (record.adapter ? `${record.adapter} on ${record.model}` : record.model);

export function formatBatchTable(batches: BatchRecord[]): string {
  return formatTable(
    ["batch id", "task", "model", "status", "progress", "files/min", "eta", "allocations", "name", "profile"],
    batches.map((b) => [b.id.slice(0, 13), b.task, modelCell(b), b.status, progressCell(b), b.progress ? b.progress.filesPerMinute : "-", etaCell(b), b.allocations, b.name, b.profile]),
  );
}

export function formatBatchDetails(d: BatchDetails): string {
  const fields: [string, unknown][] = [
    ["id", d.id],
    ["name", d.name],
    ["status", d.reason ? `${d.status} (${d.reason.split("\n")[0]})` : d.status],
    ["task", d.task],
    ["model", `${d.model}@${d.revision}`],
    ...(d.adapter ? ([["adapter", `${d.adapter} (LoRA, every request names it)`]] as [string, unknown][]) : []),
    ["profile", `${d.profile} (${d.engine}${d.handle ? `: ${d.handle}` : ""})`],
    ["input", d.input ?? d.inputDir],
    ["output", d.output ?? d.outputDir],
    ["params", Object.keys(d.params).length ? JSON.stringify(d.params) : "none"],
    ["concurrency", d.concurrency],
    ["idle timeout", `${d.idleTimeout}s`],
    ["progress", progressCell(d)],
    ["files/min", d.progress?.filesPerMinute ?? "-"],
    ["allocations", d.allocations],
    ["created", `${d.createdAt} by ${d.createdBy}`],
    ["updated", d.updatedAt],
  ];
  const width = Math.max(...fields.map(([k]) => k.length));
  const lines = fields.map(([k, v]) => `${k.padEnd(width)}  ${v ?? "None"}`);
  const files = d.files.length ? formatTable(["input", "status"], d.files.map((f) => [f.path, f.status])) : `(none${d.filesNote ? `: ${d.filesNote}` : ""})`;
  const failures = d.failures.length ? formatTable(["input", "reason"], d.failures.map((f) => [f.path, (f.reason ?? "").split("\n")[0]])) : "(none)";
  const events = formatTable(["time", "from", "to", "reason"], d.events.map((e) => [e.at, e.from ?? "-", e.to, e.reason?.split("\n")[0] ?? ""]));
  return `${lines.join("\n")}\n\nFiles${d.filesNote && d.files.length ? ` (${d.filesNote})` : ""}:\n${files}\n\nFailures:\n${failures}\n\nEvents:\n${events}`;
}
