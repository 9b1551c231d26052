import { isBatchFileStatus, isBatchPhase, type BatchDetails, type BatchFile, type BatchProgress, type BatchRecord } from "@svc/contracts";
import type { BatchRow } from "../db/batch-store";
import type { StoredBatchSpec } from "./plan";
import { identityOf } from "../workloads/records";

export const readBatchSpec = (row: BatchRow) => JSON.parse(row.spec) as StoredBatchSpec;

/** What the driver's progress file says (runtimes/batch-driver, job-state.ts). */
interface DriverProgress {
  phase: BatchProgress["phase"];
  total: number;
  done: number;
  failed: number;
  running: number;
  filesPerMinute: number;
  updatedAt: string;
  message?: string;
}

/** A progress file's text, or undefined when it is not one (half-read, or from something else). */
export function parseProgress(text: string | null | undefined): DriverProgress | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as DriverProgress;
    const counts = [value.total, value.done, value.failed, value.running, value.filesPerMinute];
    if (!isBatchPhase(value.phase) || counts.some((n) => typeof n !== "number" || !Number.isFinite(n) || n < 0)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/** Inputs still to do per the progress file. */
export const remaining = (progress: DriverProgress) => Math.max(0, progress.total - progress.done - progress.failed);

export function toProgress(text: string | null): BatchProgress | null {
  const progress = parseProgress(text);
  if (!progress) return null;
  const left = remaining(progress);
  const live = progress.phase === "running" || progress.phase === "starting";
  return {
    phase: progress.phase,
    total: Math.floor(progress.total),
    done: Math.floor(progress.done),
    failed: Math.floor(progress.failed),
    running: Math.floor(progress.running),
    filesPerMinute: progress.filesPerMinute,
    etaSeconds: live && progress.filesPerMinute > 0 ? Math.round((left / progress.filesPerMinute) * 60) : left === 0 ? 0 : null,
    updatedAt: Number.isNaN(Date.parse(progress.updatedAt)) ? new Date(0).toISOString() : progress.updatedAt,
  };
}

export function toBatchRecord(row: BatchRow): BatchRecord {
  const spec = readBatchSpec(row);
  return {
    ...identityOf(row),
    adapter: spec.adapter ?? null,
    reason: row.reason,
    allocations: row.allocations,
    progress: toProgress(row.progress),
    inputDir: spec.inputDir ?? null,
    outputDir: spec.outputDir ?? null,
    input: spec.input ?? null,
    output: spec.output ?? null,
    handle: row.handle,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** At most this many inputs are listed in details (the failures are always all listed). */
export const FILES_SHOWN = 2000;

export function toBatchDetails(row: BatchRow, events: BatchDetails["events"], state: { files: BatchFile[]; failures: BatchFile[]; note: string | null }): BatchDetails {
  const spec = readBatchSpec(row);
  return {
    ...toBatchRecord(row),
    params: spec.params,
    inputExt: spec.inputExt ?? null,
    concurrency: spec.concurrency,
    idleTimeout: spec.idleTimeout,
    job: spec.job,
    files: state.files,
    failures: state.failures,
    filesNote: state.note,
    events,
  };
}

/** The driver's state file as per-input statuses and failures, or a note saying why there are none. */
export function readStateFile(text: string | undefined): { files: BatchFile[]; failures: BatchFile[]; note: string | null } {
  if (text === undefined) return { files: [], failures: [], note: "the job has not written its state file yet" };
  let state: { files?: Record<string, string>; failures?: Record<string, { reason?: string }> };
  try {
    state = JSON.parse(text);
  } catch {
    return { files: [], failures: [], note: "the job's state file could not be read (it is being written): ask again" };
  }
  const reasons = state.failures ?? {};
  const failures: BatchFile[] = Object.entries(reasons).map(([path, failure]) => ({ path, status: "failed", reason: String(failure?.reason ?? "") }));
  const all = Object.entries(state.files ?? {}).filter(([, status]) => isBatchFileStatus(status));
  const files = all.slice(0, FILES_SHOWN).map(([path, status]) => ({ path, status: status as BatchFile["status"], ...(status === "failed" && reasons[path] ? { reason: String(reasons[path].reason ?? "") } : {}) }));
  return { files, failures, note: all.length > FILES_SHOWN ? `the first ${FILES_SHOWN} of ${all.length} inputs` : null };
}
