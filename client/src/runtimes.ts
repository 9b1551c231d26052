import type { RuntimeInstall, RuntimeInstallState, RuntimeList, RuntimeRemoval } from "@svc/contracts";
import type { RequestOptions } from "./client";

type Send = <T>(method: string, path: string, options?: RequestOptions) => Promise<T>;

/**
 * /api/runtimes: the svc runtime on slurm profiles' clusters. `client.runtimes.list(profile?)`,
 * `.install(profile?)` (poll `.installTask(id)` for progress), `.installs(filter)`, `.remove(profile?, version?)`.
 */
export class RuntimesApi {
  constructor(private readonly send: Send) {}

  list(profile?: string): Promise<RuntimeList> {
    return this.send("GET", "/api/runtimes", { query: { profile } });
  }

  /** Starts installing the runtime (or finds it there: then the task is already done). */
  install(profile?: string): Promise<RuntimeInstall> {
    return this.send("POST", "/api/runtimes/installs", { body: profile ? { profile } : {} });
  }

  installTask(id: string): Promise<RuntimeInstall> {
    return this.send("GET", `/api/runtimes/installs/${encodeURIComponent(id)}`);
  }

  installs(filter: { profile?: string; state?: RuntimeInstallState } = {}): Promise<RuntimeInstall[]> {
    return this.send("GET", "/api/runtimes/installs", { query: filter });
  }

  /** Removes `version`, or every version but the current one. */
  remove(profile?: string, version?: string): Promise<RuntimeRemoval> {
    return this.send("DELETE", "/api/runtimes", { query: { profile, version } });
  }
}
