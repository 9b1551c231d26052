import { Elysia, t } from "elysia";
import { DownloadTask } from "@svc/contracts";
import { operation } from "@svc/platform";
import { DownloadBody, TaskParams } from "./model";
import type { DownloadService } from "./service";

const tags = ["models"];

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
        ...operation("startDownload", {
          summary: "Download a model from the hub",
          tags,
          description:
            "Resolves the revision to its commit and lists the files on the hub (HF_ENDPOINT, with HF_TOKEN when set, from the environment of `svc start`), " +
            "then downloads them into the local profile's <home_dir>/models in the Hugging Face hub cache layout as a task: poll GET /api/models/downloads/{id}. " +
            "An interrupted download resumes where it stopped when asked again; the model is registered only when every file is verified. Slurm profiles: 400 download_local_only.",
          ok: { 202: DownloadTask },
          errors: {
            400: "A malformed repo id, revision or file pattern (the message names the expected shape), patterns that select no file (`no_matching_files`, naming the repo's files), or a slurm profile (`download_local_only`).",
            403: "The hub refused access (`hub_access_denied`): set HF_TOKEN for a gated or private model.",
            404: "The hub has no such repo or revision (`hub_not_found`), or no such profile (`not_found`).",
            409: "profiles.cfg does not parse (`profiles_file_invalid`).",
            422: "The model folder cannot be created (`download_failed`).",
            502: "The hub is not reachable or answered with an error (`hub_unreachable`, `hub_error`).",
            503: "profile-svc is not answering (`service_unavailable`).",
          },
        }),
      },
    )
    .get("", () => service.list(), {
      ...operation("listDownloads", { summary: "List download tasks (newest first)", tags, ok: { 200: t.Array(DownloadTask) } }),
    })
    .get("/:id", ({ params }) => service.get(params.id), {
      params: TaskParams,
      ...operation("getDownload", {
        summary: "A download task and its progress",
        tags,
        ok: { 200: DownloadTask },
        errors: { 404: "No task of that id (tasks are forgotten when svc restarts)." },
      }),
    });
}
