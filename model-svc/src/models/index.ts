import { Elysia, t } from "elysia";
import { Model, RefreshReport, RefreshRequest } from "@svc/contracts";
import { operation } from "@svc/platform";
import { ListQuery } from "./model";
import type { ModelService } from "./service";

const tags = ["models"];

/** /api/models: the registry (list with filters) and its reconciliation with the model folders. */
export function modelsController(service: ModelService) {
  return new Elysia({ name: "model-svc/models", prefix: "/api/models" })
    .get("", ({ query }) => service.list(query), {
      query: ListQuery,
      ...operation("listModels", {
        summary: "List models",
        tags,
        description: "Rows of the model registry (spec §2.3), optionally for one profile, image or repo. POST /api/models/refresh first to pick up what changed on disk.",
        ok: { 200: t.Array(Model) },
      }),
    })
    // The body is required ({} refreshes every profile): Elysia lets an optional body through unparsed when it is not JSON.
    .post("/refresh", ({ body }) => service.refresh(body.profile || undefined), {
      body: RefreshRequest,
      ...operation("refreshModels", {
        summary: "Rescan the model folders",
        tags,
        description:
          "Scans <home>/models and <cache>/models of one profile (or every profile) — Hugging Face hub cache layout; slurm profiles over SSH in one command — " +
          "and reconciles the registry in one transaction: new snapshots are added, vanished ones removed. What cannot be registered is listed under `issues`; " +
          "a profile that could not be scanned is reported with `status: failed` and its rows are left as they were.",
        ok: { 200: RefreshReport },
        errors: {
          404: "No profile of that name (`not_found`, `no_profiles`).",
          409: "profiles.cfg does not parse (`profiles_file_invalid`).",
          503: "profile-svc is not answering (`service_unavailable`).",
        },
      }),
    });
}
