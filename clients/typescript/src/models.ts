import type { DownloadRequest, DownloadTask, Model, ModelQuery, RefreshReport } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/models: `client.models.list(filters)`, `.refresh(profile?)`, `.startDownload(request)`, `.download(id)`, `.downloads()`. */
export class ModelsApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  /** Rows of the model registry, optionally filtered by profile, image, repo and kind (models or LoRA adapters, each with how its base stands). */
  list(query: ModelQuery = {}): Promise<Model[]> {
    return this.client.call("GET /api/models", { query: { profile: query.profile, image: query.image, repo: query.repo, kind: query.kind } });
  }

  /** Rescans the model folders of one profile (default: all) and reconciles the registry. */
  refresh(profile?: string): Promise<RefreshReport> {
    return this.client.call("POST /api/models/refresh", { body: profile ? { profile } : {} });
  }

  /** Starts downloading a repo from the hub into a local profile; poll `download(task.id)` for progress. */
  startDownload(request: DownloadRequest): Promise<DownloadTask> {
    return this.client.call("POST /api/models/downloads", { body: request });
  }

  /** A download task with its progress. */
  download(id: string): Promise<DownloadTask> {
    return this.client.call("GET /api/models/downloads/{id}", { params: { id } });
  }

  /** Download tasks since model-svc started, newest first. */
  downloads(): Promise<DownloadTask[]> {
    return this.client.call("GET /api/models/downloads", {});
  }
}
