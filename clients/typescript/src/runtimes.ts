import type { FoundEngineVersion, RuntimeInstall, RuntimeInstallState, RuntimeList, RuntimeRemoval } from "@svc/contracts";
import type { SvcClient } from "./client";

/**
 * /api/runtimes: the svc runtime on slurm profiles' clusters. `client.runtimes.list(profile?)`,
 * `.install(profile?)` (poll `.installTask(id)` for progress), `.installs(filter)`, `.remove(profile?, version?)`.
 */
export class RuntimesApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(profile?: string): Promise<RuntimeList> {
    return this.client.call("GET /api/runtimes", { query: { profile } });
  }

  /** The vLLM and SGLang versions found where `profile` runs them (read when missing or older than an hour). */
  engineVersions(profile?: string): Promise<FoundEngineVersion[]> {
    return this.client.call("GET /api/runtimes/engines", { query: { profile } });
  }

  /** Starts installing the runtime (or finds it there: then the task is already done). */
  install(profile?: string): Promise<RuntimeInstall> {
    return this.client.call("POST /api/runtimes/installs", { body: profile ? { profile } : {} });
  }

  installTask(id: string): Promise<RuntimeInstall> {
    return this.client.call("GET /api/runtimes/installs/{id}", { params: { id } });
  }

  installs(filter: { profile?: string; state?: RuntimeInstallState } = {}): Promise<RuntimeInstall[]> {
    return this.client.call("GET /api/runtimes/installs", { query: filter });
  }

  /** Removes `version`, or every version but the current one. */
  remove(profile?: string, version?: string): Promise<RuntimeRemoval> {
    return this.client.call("DELETE /api/runtimes", { query: { profile, version } });
  }
}
