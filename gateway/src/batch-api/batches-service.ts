import { ApiError, type BatchDetails, type BatchRunRequest } from "@svc/contracts";
import type { SvcClient } from "@svc/client";
import type { V1BatchRow } from "../db/schema";
import { mayUse, type Caller } from "../openai/caller";
import type { V1Outcome } from "../openai/outcome";
import { BATCH_ENDPOINTS, endpointProblem } from "./batch-file";
import { endStatus, isFinal, jobEnded, liveStatus } from "./batch-status";
import { batchObject, type BatchStore } from "./batch-store";
import { nowSeconds, type FileStore } from "./file-store";
import { ownerOf } from "./owner";
import { callerName } from "../usage/store";
import { splitResults } from "./split-results";
import { invalid, missing, V1Error } from "./v1-error";

/** The metadata key that names the profile a batch runs on (default: the default profile). */
export const PROFILE_METADATA_KEY = "svc_profile";
const WINDOW_SECONDS = 24 * 3600;

export interface CreateBatch {
  input_file_id?: unknown;
  endpoint?: unknown;
  completion_window?: unknown;
  metadata?: unknown;
}

export interface BatchApiDeps {
  batches: BatchStore;
  files: FileStore;
  /** The orchestrator's batch jobs (/api/batches). */
  client: Pick<SvcClient, "batches">;
  /** Records one request's usage, as /v1 does for each request (it counts against its key's budgets). */
  record(outcome: V1Outcome): void;
  /** The 429 for a caller whose daily or monthly token budget is spent: its batch is refused at creation. */
  spentBudget?(caller: Caller): Response | undefined;
}

function checkMetadata(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid("metadata: give an object of strings.", "metadata");
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 16) throw invalid("metadata: at most 16 keys.", "metadata");
  for (const [key, text] of entries) {
    if (key.length > 64) throw invalid(`metadata key ${JSON.stringify(key.slice(0, 70))}: at most 64 characters.`, "metadata");
    if (typeof text !== "string" || text.length > 512) throw invalid(`metadata.${key}: give a string of at most 512 characters.`, "metadata");
  }
  return value as Record<string, string>;
}

/** An error of the orchestrator, said as OpenAI's error (its status and message kept). */
const fromSvc = (error: unknown, param: string | null = null) => (error instanceof ApiError ? new V1Error(error.status >= 500 ? 502 : error.status, error.code, error.message, param) : error);

/**
 * OpenAI's Batch API over svc's batch jobs: a batch is a job of task `openai` on the file's model,
 * its input the uploaded file (the orchestrator copies it to where the job runs). Its status and
 * counts follow the job; once the job ended its results are split into an output and an error
 * file, usage is recorded per request (then, once), and the batch is completed, cancelled or failed.
 */
export class BatchApiService {
  /** Batches whose end is being collected, so two reads do not collect it twice. */
  private readonly finishing = new Map<string, Promise<V1BatchRow>>();

  constructor(private readonly deps: BatchApiDeps) {}

  /** A new batch, or the refusal to answer (its key's budget is spent). */
  async create(caller: Caller, request: CreateBatch): Promise<ReturnType<typeof batchObject> | Response> {
    const owner = ownerOf(caller);
    if (typeof request.input_file_id !== "string") throw invalid("input_file_id: give the id of a file uploaded with purpose batch.", "input_file_id");
    if (!BATCH_ENDPOINTS.includes(request.endpoint as (typeof BATCH_ENDPOINTS)[number])) throw invalid(`endpoint ${JSON.stringify(request.endpoint)}: use one of ${BATCH_ENDPOINTS.join(", ")}.`, "endpoint");
    const endpoint = request.endpoint as string;
    if (request.completion_window !== "24h") throw invalid(`completion_window ${JSON.stringify(request.completion_window)}: use "24h".`, "completion_window");
    const metadata = checkMetadata(request.metadata);
    const file = this.deps.files.get(owner, request.input_file_id);
    if (!file) throw missing("file", request.input_file_id);
    if (file.purpose !== "batch" || !file.model || !file.urls) throw invalid(`File ${file.id} has purpose ${file.purpose}: a batch's input is a file uploaded with purpose batch.`, "input_file_id");
    const problem = endpointProblem(JSON.parse(file.urls) as string[], endpoint);
    if (problem) throw invalid(problem, "endpoint");
    if (!mayUse(caller, file.model)) throw new V1Error(403, "model_not_allowed", `This API key may not use '${file.model}'.`, "input_file_id");
    const spent = this.deps.spentBudget?.(caller);
    if (spent) return spent;
    const profile = metadata?.[PROFILE_METADATA_KEY];
    const run: BatchRunRequest = { task: "openai", model: file.model, upload: this.deps.files.pathOf(file.id), idleTimeout: 0, ...(profile ? { profile } : {}) };
    const started = await this.deps.client.batches.run(run).catch((error) => {
      throw fromSvc(error, "input_file_id");
    });
    const now = nowSeconds();
    const row: V1BatchRow = {
      id: this.deps.batches.newId(),
      owner,
      caller: callerName(caller),
      jobId: started.batch!.id,
      inputFileId: file.id,
      endpoint,
      model: file.model,
      completionWindow: "24h",
      metadata: metadata ? JSON.stringify(metadata) : null,
      status: "validating",
      total: file.lines ?? 0,
      completed: 0,
      failed: 0,
      outputFileId: null,
      errorFileId: null,
      errors: null,
      createdAt: now,
      inProgressAt: null,
      finalizingAt: null,
      completedAt: null,
      failedAt: null,
      cancellingAt: null,
      cancelledAt: null,
      expiresAt: now + WINDOW_SECONDS,
    };
    this.deps.batches.insert(row);
    return batchObject(row);
  }

  async retrieve(caller: Caller, id: string) {
    const row = this.deps.batches.get(ownerOf(caller), id);
    if (!row) throw missing("batch", id);
    return batchObject(await this.follow(row));
  }

  async list(caller: Caller, after: string | undefined, limit: number) {
    const { rows, hasMore } = this.deps.batches.list(ownerOf(caller), after, limit);
    const data = await Promise.all(rows.map(async (row) => batchObject(await this.follow(row))));
    return { object: "list" as const, data, first_id: data[0]?.id, last_id: data.at(-1)?.id, has_more: hasMore };
  }

  async cancel(caller: Caller, id: string) {
    const row = this.deps.batches.get(ownerOf(caller), id);
    if (!row) throw missing("batch", id);
    if (isFinal(row.status)) throw new V1Error(409, "conflict", `Batch ${id} is ${row.status}: only a batch in progress can be cancelled.`);
    if (row.cancellingAt === null) {
      await this.deps.client.batches.stop(row.jobId).catch((error) => {
        // A job that ended meanwhile is not live any more: its end is collected below.
        if (!(error instanceof ApiError && error.status === 409)) throw fromSvc(error);
      });
      this.deps.batches.patch(row.id, { cancellingAt: nowSeconds(), status: "cancelling" });
    }
    return batchObject(await this.follow(this.deps.batches.get(row.owner, id)!));
  }

  /** Brings a batch up to its job's state; a job that ended has its files made (once). */
  private async follow(row: V1BatchRow): Promise<V1BatchRow> {
    if (isFinal(row.status)) return row;
    let job: BatchDetails;
    try {
      job = await this.deps.client.batches.get(row.jobId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.deps.batches.patch(row.id, { status: "failed", failedAt: nowSeconds(), errors: JSON.stringify([{ code: "job_removed", message: `Its svc batch job ${row.jobId} was removed (svc batch rm).` }]) });
      throw fromSvc(error);
    }
    const status = liveStatus(job.status, row.cancellingAt !== null);
    const now = nowSeconds();
    const counts = job.progress ? { completed: job.progress.done, failed: job.progress.failed } : {};
    if (!jobEnded(job.status)) {
      const inProgressAt = row.inProgressAt ?? (status === "in_progress" ? now : null);
      return this.deps.batches.patch(row.id, { status, inProgressAt, ...counts });
    }
    const running = this.finishing.get(row.id);
    if (running) return running;
    const finishing = this.finish(row, job).finally(() => this.finishing.delete(row.id));
    this.finishing.set(row.id, finishing);
    return finishing;
  }

  /** The job ended: its results become the output and error files, usage is recorded, and the batch takes its final status. */
  private async finish(row: V1BatchRow, job: BatchDetails): Promise<V1BatchRow> {
    const { batches, files } = this.deps;
    batches.patch(row.id, { status: "finalizing", finalizingAt: row.finalizingAt ?? nowSeconds() });
    const text = await this.deps.client.batches.results(row.jobId).catch((error) => {
      if (error instanceof ApiError && error.status === 404) return "";
      throw fromSvc(error);
    });
    const split = splitResults(text);
    const encoder = new TextEncoder();
    const made = (name: string, content: string) => (content ? files.add(row.owner, { filename: `${row.id}_${name}.jsonl`, purpose: "batch_output", data: encoder.encode(content) }).id : null);
    const outputFileId = made("output", split.output);
    const errorFileId = made("error", split.errors);
    for (const line of split.lines) this.recordUsage(row, job, line);
    const end = endStatus(job.status);
    const now = nowSeconds();
    const completed = split.lines.filter((line) => line.ok).length;
    return batches.patch(row.id, {
      status: end,
      outputFileId,
      errorFileId,
      completed,
      failed: split.lines.length - completed,
      inProgressAt: row.inProgressAt ?? now,
      completedAt: end === "completed" ? now : null,
      cancelledAt: end === "cancelled" ? now : null,
      cancellingAt: end === "cancelled" ? (row.cancellingAt ?? now) : row.cancellingAt,
      failedAt: end === "failed" ? now : null,
      errors: end === "failed" ? JSON.stringify([{ code: "job_failed", message: job.reason ?? "its svc batch job failed" }]) : null,
    });
  }

  private recordUsage(row: V1BatchRow, job: BatchDetails, line: ReturnType<typeof splitResults>["lines"][number]) {
    const caller: Caller = row.owner.startsWith("key:") ? { kind: "key", id: row.owner.slice(4), name: row.caller, models: null } : row.owner === "token" ? { kind: "token" } : { kind: "anonymous" };
    this.deps.record({
      at: new Date(),
      caller,
      endpoint: row.endpoint,
      model: row.model,
      modelServed: true,
      serviceId: job.id,
      serviceName: job.name,
      status: line.status,
      end: line.ok ? "complete" : "error",
      latencyMs: 0,
      usage: line.usage,
    });
  }
}
