import { existsSync, realpathSync, statSync } from "node:fs";
import { posix } from "node:path";
import { badRequest, type Profile } from "@svc/contracts";
import type { Mount } from "../engines/engine";

/** Where a container (or an Apptainer image) keeps what it needs itself: a --mount there would hide or replace it. */
const SYSTEM_DIRS = ["/proc", "/sys", "/dev", "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/run", "/app"];
/** Folders that may hold mounts but not be one: the root, and /tmp (the container's writable HOME). */
const NOT_THEMSELVES = ["/", "/tmp"];

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

function checkPlace(path: string, given: string) {
  const normal = posix.normalize(path).replace(/(.)\/+$/, "$1");
  if (NOT_THEMSELVES.includes(normal) || SYSTEM_DIRS.some((dir) => within(normal, dir))) {
    throw badRequest(
      `--mount ${given}: ${normal === given ? "that folder" : `it is ${normal}, which`} holds what the service's container needs itself (${[...NOT_THEMSELVES, ...SYSTEM_DIRS].join(", ")} and below are refused): mount a folder of your data instead.`,
      { field: "mounts" },
    );
  }
  return normal;
}

/**
 * The `--mount` folders of a run, checked (their characters were checked with the request): each
 * must be an absolute folder outside the places a container needs, and on this machine (a local
 * profile) must exist and be a folder; its links are resolved, so the bind's source is the real
 * folder while the service sees it at the path given. On a cluster the job checks, on its node, that
 * each is there.
 */
export function checkMounts(profile: Profile, mounts: readonly string[]): Mount[] {
  const seen = new Set<string>();
  return mounts.map((given) => {
    const target = checkPlace(given, given);
    if (seen.has(target)) throw badRequest(`--mount ${given} is given twice.`, { field: "mounts" });
    seen.add(target);
    if (profile.schema !== "local") return { source: target, target };
    if (!existsSync(given) || !statSync(given).isDirectory()) {
      throw badRequest(`--mount ${given}: no such folder on this machine (the Docker host). Give a folder that exists.`, { field: "mounts" });
    }
    return { source: checkPlace(realpathSync(given), given), target };
  });
}
