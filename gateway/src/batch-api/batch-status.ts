import type { BatchStatus } from "@svc/contracts";

export type OpenAiBatchStatus = "validating" | "failed" | "in_progress" | "finalizing" | "completed" | "expired" | "cancelling" | "cancelled";

/** States a batch does not leave. */
export const FINAL_STATUSES: readonly OpenAiBatchStatus[] = ["failed", "completed", "expired", "cancelled"];
export const isFinal = (status: string) => FINAL_STATUSES.includes(status as OpenAiBatchStatus);

/**
 * OpenAI's status for a batch whose svc batch job is in `job`: submitted is `validating`, queued or
 * running `in_progress`; a job that ended is `finalizing` until its output and error files are made
 * (then `completed`, `cancelled` or `failed`, see endStatus). A cancel asked for shows as
 * `cancelling` until the job has stopped.
 */
export function liveStatus(job: BatchStatus, cancelAsked: boolean): OpenAiBatchStatus {
  if (job === "SUBMITTED") return cancelAsked ? "cancelling" : "validating";
  if (job === "PENDING" || job === "RUNNING") return cancelAsked ? "cancelling" : "in_progress";
  if (job === "STOPPING") return "cancelling";
  return "finalizing";
}

/** Whether the job has ended (its results file is final). */
export const jobEnded = (job: BatchStatus) => job === "COMPLETED" || job === "STOPPED" || job === "FAILED";

/** The status a batch ends in once its files are made: a stopped job (by /cancel, or `svc batch stop`) is cancelled. */
export function endStatus(job: BatchStatus): OpenAiBatchStatus {
  if (job === "COMPLETED") return "completed";
  if (job === "STOPPED") return "cancelled";
  return "failed";
}
