import { ProfileService } from "./profiles/service";

/**
 * The profile operations working on a profiles.cfg directly, without the application running (the
 * CLI's fallback, e.g. `svc init` on a fresh machine): the same rules, checks, lock and atomic
 * writes as /api/profiles, and the same ApiError for every refusal. Loads no HTTP framework.
 */
export function profilesOnDisk(profilesFile: string, env: Record<string, string | undefined> = process.env) {
  return new ProfileService({ profilesFile, env });
}
