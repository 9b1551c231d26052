import { Elysia, t } from "elysia";
import { DownloadTask, ErrorBody } from "@svc/contracts";
import { DownloadBody, TaskParams } from "./model";
import type { DownloadService } from "./service";

/** /api/models/downloads: `svc model add` as a task with progress. */
export function downloadsController(service: DownloadService) {
  return new Elysia({ name: "model-svc/downloads", prefix: "/api/models/downloads" })
    .post(
      "",
      async ({ body, set }) => {
        const task = await service.start(body);
        set.status = 202;
        return task;
      },
      {
        body: DownloadBody,
        response: { 202: DownloadTask, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody, 502: ErrorBody, 503: ErrorBody },
        detail: {
          summary: "Download a model from the hub",
          tags: ["models"],
          description:
            "Resolves the revision to its commit and lists the files on the hub (HF_ENDPOINT, with HF_TOKEN when set, from the environment of `svc start`), " +
            "then downloads them into the local profile's <home_dir>/models in the Hugging Face hub cache layout as a task: poll GET /api/models/downloads/{id}. " +
            "An interrupted download resumes where it stopped when asked again; the model is registered only when every file is verified. Slurm profiles: 400 download_local_only.",
        },
      },
    )
    .get("", () => service.list(), {
      response: { 200: t.Array(DownloadTask) },
      detail: { summary: "List download tasks (newest first)", tags: ["models"] },
    })
    .get("/:id", ({ params }) => service.get(params.id), {
      params: TaskParams,
      response: { 200: DownloadTask, 404: ErrorBody },
      detail: { summary: "A download task and its progress", tags: ["models"] },
    });
}
