import { randomUUID } from "node:crypto";
import { BATCH_TASK_MODEL, badRequest, conflict, notFound, isBusyBatch, isLiveBatch, type BatchDetails, type BatchRecord, type BatchRunRequest, type BatchRunResponse, type BatchStatus, type Profile } from "@svc/contracts";
import type { BatchRow, BatchStore } from "../db/batch-store";
import type { Engine, LaunchSpec, Observation } from "../engines/engine";
import type { PlannerDeps } from "../launch/planner";
import type { JobFollower } from "../reconciler/reconciler";
import { engineFailure } from "../services/engine-failure";
import { removeWorkload, stopWorkload, submitWorkload } from "../workloads/lifecycle";
import { submittedRow, unusedName } from "../workloads/records";
import { BATCH_WORDS, recentlyEndedSince, resolveWorkload } from "../workloads/lookup";
import { batchLaunch, planBatch, stateDirOf } from "./plan";
import { parseProgress, readBatchSpec, readStateFile, remaining, toBatchDetails, toBatchRecord } from "./records";
import { KIND_TRAITS } from "../engines/kind-traits";

export interface BatchesDeps {
  store: BatchStore;
  /** svc's uploads folder on this machine (see homeLayout): where an `upload` may come from. */
  uploadsDir: string;
  planner: PlannerDeps;
  engineFor(profile: Profile): Engine;
  engineOf(row: BatchRow): Engine;
  /** Runs the reconciler's next tick now. */
  wake(): void;
  log?: (message: string) => void;
}

const NAME_PREFIX = "batch-";
/** The most of a results file GET /api/batches/{ref}/results reads (OpenAI's inputs are up to 200 MB). */
const MAX_RESULTS_BYTES = 1024 * 1024 * 1024;

/** Copies an uploaded requests file to where the job reads it (over the profile's connection for a cluster). */
async function stageUpload(engine: Engine, upload: string, target: string) {
  if (!engine.putJobFile) throw badRequest(`The ${engine.kind} engine cannot take an uploaded file: give input and output paths.`, { field: "upload" });
  await engine.putJobFile(target, new Uint8Array(await Bun.file(upload).arrayBuffer())).catch((error) => {
    throw engineFailure(error, `The uploaded requests could not be copied for the job`);
  });
}
/** A submit cut off before its handle was recorded, and not found in the engine after this long, failed. */
const ADOPT_GRACE_MS = 30_000;

/**
 * svc batch run / ls / details / stop / resume / rm, and what the reconciler's status pass says
 * about each live job (it follows them beside the services: see JobFollower). A Slurm job that
 * reached its time limit with inputs left is submitted again, as is one the engine forgot.
 */
export class BatchesService implements JobFollower {
  /** Jobs whose submit is under way in this process. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: BatchesDeps) {}

  async run(request: BatchRunRequest): Promise<BatchRunResponse> {
    const { store } = this.deps;
    const id = randomUUID();
    const { plan, stored } = await planBatch(request, this.deps.planner, { uploadsDir: this.deps.uploadsDir, id });
    if (request.name && store.live().some((row) => row.name === request.name)) throw conflict(`A live batch job is already named ${request.name}: choose another --name.`);
    const engine = this.deps.engineFor(plan.profile);
    const name = request.name ?? unusedName(NAME_PREFIX, store.live());
    const spec = this.launchSpec({ id, name, task: request.task }, stored, false);
    const script = await engine.render(spec).catch((error) => {
      throw engineFailure(error, `${engine.kind} cannot run this batch job`);
    });
    const base = { matched: plan.matched, revision: plan.model.revision, warnings: plan.warnings, script };
    if (request.dryRun) return { ...base, batch: null };
    if (stored.upload) await stageUpload(engine, stored.upload, stored.input!);
    store.insert(
      { ...submittedRow({ id, name, task: request.task, model: plan.model.repo, revision: plan.model.revision, profile: plan.profile.name, engine: engine.kind, spec: stored }), allocations: 1, progress: null },
      `submitted to ${engine.kind}`,
    );
    const notes = await this.submit(engine, spec);
    return { ...base, warnings: [...base.warnings, ...notes], batch: toBatchRecord(store.get(id)!) };
  }

  private launchSpec(row: Pick<BatchRow, "id" | "name" | "task">, stored: ReturnType<typeof readBatchSpec>, retryFailed: boolean): LaunchSpec {
    return {
      serviceId: row.id,
      name: row.name,
      task: BATCH_TASK_MODEL[row.task],
      image: stored.launch.image,
      args: stored.launch.args,
      modelDir: stored.launch.modelDir,
      ...(stored.launch.mounts ? { mounts: stored.launch.mounts } : {}),
      job: stored.job,
      batch: batchLaunch(row.task, stored, retryFailed),
    };
  }

  /** Hands the job to the engine and records its handle; a refusal is recorded as FAILED and reported. */
  private submit(engine: Engine, spec: LaunchSpec): Promise<string[]> {
    return submitWorkload(engine, spec, {
      words: BATCH_WORDS,
      store: this.deps.store,
      live: isLiveBatch,
      recorded: (submitted) => ({ handle: submitted.handle }),
      during: async (id, submit) => {
        this.inFlight.add(id);
        try {
          return await submit();
        } finally {
          this.inFlight.delete(id);
        }
      },
      wake: () => this.deps.wake(),
    });
  }

  /** `svc batch ls`: live jobs and those that ended in the last RECENTLY_ENDED_MS (so what just finished, and where its outputs went, shows), or with `all` (or a status) every one; newest first. */
  list(filter: { status?: BatchStatus; all?: boolean }, now = new Date()): BatchRecord[] {
    return this.deps.store.list({ status: filter.status, all: filter.all || Boolean(filter.status), endedSince: recentlyEndedSince(now) }).map(toBatchRecord);
  }

  /** A job by full id, unique id prefix, or name. */
  resolve(ref: string): BatchRow {
    return resolveWorkload(this.deps.store, ref, BATCH_WORDS);
  }

  async details(ref: string): Promise<BatchDetails> {
    const row = this.resolve(ref);
    const stateFile = `${stateDirOf(row.task, readBatchSpec(row))}/state.json`;
    let text: string | undefined;
    let note: string | null = null;
    if (row.handle) {
      try {
        text = await this.deps.engineOf(row).readJobFile?.(row.handle, stateFile);
      } catch (error) {
        note = `the job's state file could not be read: ${(error as Error).message}`;
      }
    }
    const state = readStateFile(text);
    return toBatchDetails(row, this.deps.store.events(row.id), note ? { ...state, note } : state);
  }

  /** The results file of an `openai` job as it is now (whole lines, in the order they were done); 404 before the job wrote any. */
  async results(ref: string): Promise<string> {
    const row = this.resolve(ref);
    if (row.task !== "openai") throw badRequest(`Batch job ${row.id} is a ${row.task} job: its outputs are files in ${readBatchSpec(row).outputDir}, not one results file.`, { field: "ref" });
    const { output } = readBatchSpec(row);
    const engine = this.deps.engineOf(row);
    if (!engine.readJobFile) throw badRequest(`The ${engine.kind} engine cannot read a job's files.`);
    const text = await engine.readJobFile(row.handle ?? "", output!, { maxBytes: MAX_RESULTS_BYTES });
    if (text === undefined) throw notFound(`Batch job ${row.id} has no results yet (${output} is not there).`);
    // A line being written as it was read is left for the next read.
    return text.endsWith("\n") || text === "" ? text : text.slice(0, text.lastIndexOf("\n") + 1);
  }

  async stop(ref: string): Promise<BatchRecord> {
    const row = this.resolve(ref);
    const { store } = this.deps;
    await stopWorkload(row, { live: isLiveBatch(row.status), words: BATCH_WORDS, store, engine: () => this.deps.engineOf(row), wake: () => this.deps.wake() });
    return toBatchRecord(store.get(row.id)!);
  }

  /** Starts a stopped, failed or completed job again: inputs with an output are skipped; with retryFailed the failed ones are run again. */
  async resume(ref: string, retryFailed: boolean): Promise<BatchRecord> {
    const row = this.resolve(ref);
    if (isLiveBatch(row.status)) throw conflict(`Batch job ${row.id} is ${row.status}; only a stopped, failed or completed job can be resumed.`);
    await this.again(row, retryFailed, retryFailed ? "resumed by its creator, failed inputs retried" : "resumed by its creator");
    return toBatchRecord(this.deps.store.get(row.id)!);
  }

  private async again(row: BatchRow, retryFailed: boolean, reason: string, expected?: BatchStatus) {
    const engine = this.deps.engineOf(row);
    if (row.handle) await engine.release(row.handle).catch(() => {});
    const moved = this.deps.store.transition(row.id, "SUBMITTED", reason, { handle: null, allocations: row.allocations + 1 }, expected);
    if (!moved) return;
    await this.submit(engine, this.launchSpec(row, readBatchSpec(row), retryFailed));
  }

  async remove(ref: string, force: boolean): Promise<BatchRecord> {
    const row = this.resolve(ref);
    const removed = await removeWorkload(row, { force, live: isLiveBatch(row.status), words: BATCH_WORDS, stop: (id) => this.stop(id), store: this.deps.store, engine: this.deps.engineOf(row) });
    return toBatchRecord(removed);
  }

  // The reconciler's side (JobFollower).

  tracked() {
    return this.deps.store
      .live()
      .filter((row) => row.handle && !this.inFlight.has(row.id))
      .map((row) => ({ engine: this.deps.engineOf(row), handle: row.handle! }));
  }

  /** Jobs recorded as submitted without a handle (svc stopped between submit and record): found in the engine by their id, or failed after a grace period. */
  async beforeTick(): Promise<void> {
    const orphans = this.deps.store.live().filter((row) => !row.handle && row.status === "SUBMITTED" && !this.inFlight.has(row.id));
    if (orphans.length === 0) return;
    const byEngine = new Map<Engine, BatchRow[]>();
    for (const row of orphans) byEngine.set(this.deps.engineOf(row), [...(byEngine.get(this.deps.engineOf(row)) ?? []), row]);
    for (const [engine, rows] of byEngine) {
      const found = await engine.adopt(rows.map((row) => row.id));
      for (const row of rows) {
        const handle = found.get(row.id);
        if (handle) this.deps.store.patch(row.id, { handle });
        else if (Date.now() - Date.parse(row.updatedAt) > ADOPT_GRACE_MS) this.deps.store.transition(row.id, "FAILED", "the submission was interrupted before the engine accepted it", {}, "SUBMITTED");
      }
    }
  }

  busy() {
    return this.deps.store.live().some((row) => isBusyBatch(row.status));
  }

  async observed(engine: Engine, observations: Map<string, Observation>): Promise<void> {
    const { store } = this.deps;
    for (const row of store.live()) {
      if (!row.handle || this.inFlight.has(row.id) || this.deps.engineOf(row) !== engine) continue;
      const observation = observations.get(row.handle);
      if (!observation) continue;
      await this.follow(row, observation).catch((error) => this.deps.log?.(`batch ${row.id}: ${(error as Error).message}`));
    }
  }

  /** Moves one job toward what its engine reported; its progress is kept whatever the status. */
  private async follow(row: BatchRow, observation: Observation) {
    const { store } = this.deps;
    const progressText = parseProgress(observation.progress) ? observation.progress!.trim() : row.progress;
    if (progressText !== row.progress) store.patch(row.id, { progress: progressText });
    const progress = parseProgress(progressText);
    const stopping = row.status === "STOPPING";
    const log = (to: BatchStatus, reason: string | null) => this.deps.log?.(`batch ${row.id} ${row.status} → ${to}${reason ? `: ${reason.split("\n")[0]}` : ""}`);
    const move = (to: BatchStatus, reason: string | null) => {
      if (to === row.status) return;
      if (store.transition(row.id, to, reason, {}, row.status)) log(to, reason);
    };
    const finished = progress?.phase === "finished";
    // Inputs left: none once the driver finished, or when it was ended (e.g. at its time limit) while it only waited for new files.
    const left = !finished && (!progress || remaining(progress) > 0 || progress.phase === "starting");
    const unfinished = progress ? `${remaining(progress)} of ${progress.total} inputs left` : "its inputs not all done";
    switch (observation.phase) {
      case "queued":
        if (!stopping) {
          move("PENDING", observation.reason ?? null);
          if (row.status === "PENDING" && observation.reason && observation.reason !== row.reason) store.patch(row.id, { reason: observation.reason });
        }
        return;
      case "running":
        if (!stopping) move("RUNNING", null);
        return;
      case "missing":
        if (stopping) return move("STOPPED", "stopped by its creator");
        if (row.status === "SUBMITTED") return;
        if (!left) return move("COMPLETED", progress?.message ?? null);
        if (KIND_TRAITS[row.engine].forgetsEndedJobs) return this.resubmit(row, `the engine no longer knows its job, with ${unfinished}: submitted again`);
        return move("FAILED", "the engine no longer knows this job (removed outside svc?)");
      case "exited":
        if (stopping || observation.outcome === "cancelled") return move("STOPPED", stopping ? "stopped by its creator" : observation.reason);
        if (observation.outcome === "completed") return move("COMPLETED", progress?.message ?? null);
        if (observation.outcome === "timeout" && left) return this.resubmit(row, `reached its time limit with ${unfinished}: submitted again`);
        if (observation.outcome === "timeout") return move("COMPLETED", progress?.message ?? `its time limit ended the wait for new inputs; all ${progress?.total ?? 0} were done`);
        if (progress?.phase === "stopped") return move("STOPPED", "its driver was stopped outside svc");
        return move("FAILED", progress?.phase === "failed" && progress.message ? `${progress.message} (${observation.reason.split("\n")[0]})` : observation.reason);
    }
  }

  private async resubmit(row: BatchRow, reason: string) {
    this.deps.log?.(`batch ${row.id}: ${reason}`);
    await this.again(row, false, reason, row.status);
  }
}
