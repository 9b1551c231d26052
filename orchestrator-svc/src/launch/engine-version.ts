import type { EngineVersionCheck, GpuEngine, Profile, RunRequest } from "@svc/contracts";
import { optionListFor } from "../engines/options/versions";
import type { FoundVersion } from "../engines/versions/probe";

/**
 * Which version a GPU launch's arguments are checked for: --engine-version, else the version found
 * where it runs (its image, or a bare job's Python), else the pinned one; with --image and none
 * found, none (unchecked). A found version that is no version counts as not found.
 */
export async function launchEngineVersion(
  request: RunRequest,
  profile: Profile,
  engine: GpuEngine,
  image: string,
  deps: { engineVersion?(profile: Profile, engine: GpuEngine, image: string): Promise<FoundVersion | null> },
): Promise<EngineVersionCheck> {
  if (request.engineVersion !== undefined) {
    return { engine, version: request.engineVersion, source: "given", checkedAgainst: optionListFor(engine, request.engineVersion).list.version, how: "--engine-version" };
  }
  const found = await deps.engineVersion?.(profile, engine, image).catch(() => null);
  if (found?.version) {
    try {
      return { engine, version: found.version, source: "found", checkedAgainst: optionListFor(engine, found.version).list.version, how: found.how };
    } catch {
      // Not a version svc can read: as if none was found.
    }
  }
  if (request.image !== undefined) return { engine, version: null, source: "unknown", checkedAgainst: null, ...(found ? { how: found.how } : {}) };
  const pinned = optionListFor(engine, undefined).list.version;
  return { engine, version: pinned, source: "pinned", checkedAgainst: pinned, ...(found ? { how: found.how } : {}) };
}
