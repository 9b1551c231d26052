import { Elysia, t } from "elysia";
import { BatchDetails, BatchRecord, BatchResumeRequest, BatchRunRequest, BatchRunResponse } from "@svc/contracts";
import { operation, textAnswer } from "@svc/platform";
import type { BatchesService } from "./service";
import { BATCH_WORDS } from "../workloads/lookup";
import { ENGINE_ERRORS, ENGINE_REACH_ERRORS, runStatus, workloadDocs } from "../workloads/route-docs";
import { BatchListQuery, BatchRefParams, BatchRemoveQuery } from "./model";

const tags = ["batches"];
const docs = workloadDocs({ ...BATCH_WORDS, field: "batch", tags });

/** /api/batches: run a model over a folder or an OpenAI batch file; list with progress, details, stop, resume, remove. */
export function batchesController(batches: BatchesService) {
  return new Elysia({ name: "orchestrator/batches", prefix: "/api/batches" })
    .get("", ({ query }) => batches.list(query), {
      query: BatchListQuery,
      ...operation("listBatches", { summary: "List batch jobs with their progress: live ones and those that ended in the last 24 hours (all: every one), newest first", tags, ok: { 200: t.Array(BatchRecord) } }),
    })
    .post(
      "",
      async ({ body, set }) => {
        const result = await batches.run(body);
        runStatus(set, result.batch);
        return result;
      },
      { body: BatchRunRequest, ...docs.run("runBatch", BatchRunResponse, {
        refused: "the model cannot serve the task (the message lists the tasks it can)",
        adapter: "a LoRA adapter given as the model does not fit its base or the server (the message says why, `field` model)",
        missing: "or the base of a LoRA adapter given as the model (`adapter_base_not_found`)",
      }) },
    )
    .get("/:ref", ({ params }) => batches.details(params.ref), {
      params: BatchRefParams,
      ...docs.onRef("getBatch", { summary: "A batch job with each input's status, its failures and events", ok: { 200: BatchDetails }, engine: ENGINE_REACH_ERRORS }),
    })
    .get(
      "/:ref/results",
      async ({ params }) => new Response(await batches.results(params.ref), { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" } }),
      {
        params: BatchRefParams,
        ...docs.onRef("getBatchResults", {
          summary: "An openai batch job's results file as it is now: one JSON line per request done, in OpenAI's batch output format",
          ok: { 200: textAnswer("JSONL: `{id, custom_id, response, error}` per line.") },
          missing: "Or the job has written no results yet.",
          engine: { 400: "The job is not an openai job (its outputs are a folder of files).", ...ENGINE_REACH_ERRORS },
        }),
      },
    )
    .post("/:ref/stop", ({ params }) => batches.stop(params.ref), {
      params: BatchRefParams,
      ...docs.onRef("stopBatch", { summary: "Stop a batch job (final until resumed)", ok: { 200: BatchRecord }, engine: ENGINE_ERRORS, conflicts: "or the job is not live" }),
    })
    .post("/:ref/resume", ({ params, body }) => batches.resume(params.ref, body?.retryFailed ?? false), {
      params: BatchRefParams,
      body: BatchResumeRequest,
      ...docs.onRef("resumeBatch", { summary: "Start a stopped, failed or completed batch job again: inputs with an output are skipped", ok: { 200: BatchRecord }, engine: ENGINE_ERRORS, conflicts: "or the job is still live" }),
    })
    .delete("/:ref", ({ params, query }) => batches.remove(params.ref, query.force ?? false), {
      params: BatchRefParams,
      query: BatchRemoveQuery,
      ...docs.onRef("deleteBatch", { summary: "Delete a batch job's record (a live one needs force); its outputs stay", ok: { 200: BatchRecord }, engine: ENGINE_ERRORS, conflicts: "or the job is live and force is not set" }),
    });
}
