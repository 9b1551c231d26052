import { Elysia, t } from "elysia";
import { ErrorBody, Model, RefreshReport, RefreshRequest } from "@svc/contracts";
import { ListQuery } from "./model";
import type { ModelService } from "./service";

/** /api/models: the registry (list with filters) and its reconciliation with the model folders. */
export function modelsController(service: ModelService) {
  return new Elysia({ name: "model-svc/models", prefix: "/api/models" })
    .get("", ({ query }) => service.list(query), {
      query: ListQuery,
      response: { 200: t.Array(Model), 400: ErrorBody },
      detail: {
        summary: "List models",
        tags: ["models"],
        description: "Rows of the model registry (spec §2.3), optionally for one profile, image or repo. POST /api/models/refresh first to pick up what changed on disk.",
      },
    })
    .post("/refresh", ({ body }) => service.refresh(body?.profile || undefined), {
      body: t.Optional(RefreshRequest),
      response: { 200: RefreshReport, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      detail: {
        summary: "Rescan the model folders",
        tags: ["models"],
        description:
          "Scans <home>/models and <cache>/models of one profile (or every profile) — Hugging Face hub cache layout; slurm profiles over SSH in one command — " +
          "and reconciles the registry in one transaction: new snapshots are added, vanished ones removed. What cannot be registered is listed under `issues`.",
      },
    });
}
