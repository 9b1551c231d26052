import { dirname, join } from "node:path";
import { homeLayout } from "@svc/platform/config";
import { GpusService } from "./gpus/service";
import { ProfileService } from "./profiles/service";

/**
 * The profile operations working on a profiles.cfg directly, without the application running (the
 * CLI's fallback, e.g. `svc init` on a fresh machine): the same rules, checks, lock and atomic
 * writes as /api/profiles, and the same ApiError for every refusal. Loads no HTTP framework.
 */
export function profilesOnDisk(profilesFile: string, env: Record<string, string | undefined> = process.env) {
  const service = new ProfileService({ profilesFile, env, gpuCacheDir: gpuCacheDir(profilesFile) });
  const gpus = new GpusService(service);
  return Object.assign(service, { gpus: (name: string, options: { refresh?: boolean } = {}) => gpus.get(name, options.refresh ?? false) });
}

/** Where the running profile-svc keeps GPU readings ($SVC_HOME_DIR/data/profile-svc/gpus), so both see the same. */
export const gpuCacheDir = (profilesFile: string) => join(homeLayout(dirname(profilesFile)).dataDir("profile-svc"), "gpus");
