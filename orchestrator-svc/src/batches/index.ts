import { Elysia, t } from "elysia";
import { BatchDetails, BatchRecord, BatchResumeRequest, BatchRunRequest, BatchRunResponse } from "@svc/contracts";
import { operation } from "@svc/platform";
import type { BatchesService } from "./service";
import { BatchListQuery, BatchRefParams, BatchRemoveQuery } from "./model";

const tags = ["batches"];
const NO_SUCH = "No batch job has that id, id prefix or name (`not_found`).";
const AMBIGUOUS = "The id prefix matches several batch jobs (`ambiguous_id`)";
const ENGINE = {
  400: "The engine refused the job (e.g. Slurm's `invalid partition specified`).",
  502: "The engine (Docker Engine, Slurm over SSH) answered with an error.",
  503: "The engine, or another part of svc, is not answering.",
} as const;

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
        set.status = result.batch ? 201 : 200;
        return result;
      },
      {
        body: BatchRunRequest,
        ...operation("runBatch", {
          summary: "Run a batch job (svc batch run); dryRun only renders the start-up script",
          description: "201 with the new job's record; 200 for a dry run (`batch` is null).",
          tags,
          ok: { 200: BatchRunResponse, 201: BatchRunResponse },
          errors: {
            400: "A value is not allowed (the message names the option), the model cannot serve the task (the message lists the tasks it can), or the engine refused the job.",
            404: "The profile, model or revision is not registered (`not_found`, `model_not_found`, `revision_not_found`).",
            409: "A live batch job already has that name (`conflict`).",
            502: ENGINE[502],
            503: ENGINE[503],
          },
        }),
      },
    )
    .get("/:ref", ({ params }) => batches.details(params.ref), {
      params: BatchRefParams,
      ...operation("getBatch", { summary: "A batch job with each input's status, its failures and events", tags, ok: { 200: BatchDetails }, errors: { 404: NO_SUCH, 409: `${AMBIGUOUS}.`, 502: ENGINE[502], 503: ENGINE[503] } }),
    })
    .post("/:ref/stop", ({ params }) => batches.stop(params.ref), {
      params: BatchRefParams,
      ...operation("stopBatch", { summary: "Stop a batch job (final until resumed)", tags, ok: { 200: BatchRecord }, errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the job is not live (\`conflict\`).` } }),
    })
    .post("/:ref/resume", ({ params, body }) => batches.resume(params.ref, body?.retryFailed ?? false), {
      params: BatchRefParams,
      body: BatchResumeRequest,
      ...operation("resumeBatch", {
        summary: "Start a stopped, failed or completed batch job again: inputs with an output are skipped",
        tags,
        ok: { 200: BatchRecord },
        errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the job is still live (\`conflict\`).` },
      }),
    })
    .delete("/:ref", ({ params, query }) => batches.remove(params.ref, query.force ?? false), {
      params: BatchRefParams,
      query: BatchRemoveQuery,
      ...operation("deleteBatch", { summary: "Delete a batch job's record (a live one needs force); its outputs stay", tags, ok: { 200: BatchRecord }, errors: { ...ENGINE, 404: NO_SUCH, 409: `${AMBIGUOUS}, or the job is live and force is not set (\`conflict\`).` } }),
    });
}
