import { posix } from "node:path";
import { badRequest } from "@svc/contracts";
import type { EngineCapabilities, Mount } from "../engines/engine";
import { checkDataPath, type ProtectedPlace } from "./data-paths";

/** Where a container (or an Apptainer image) keeps what it needs itself: a folder bound at the same path there would hide or replace it. */
const CONTAINER_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/app"];
/** Folders that may hold binds but not be one: /tmp is the container's writable HOME. */
const NOT_THEMSELVES = ["/tmp"];

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/** Refuses a path that, bound at the same path in a container, would hide what the container needs itself. */
export function checkContainerPlace(path: string, given: string, option: string, field: string) {
  const normal = posix.normalize(path).replace(/(.)\/+$/, "$1");
  if (NOT_THEMSELVES.includes(normal) || CONTAINER_DIRS.some((dir) => within(normal, dir))) {
    throw badRequest(
      `${option} ${given}: ${normal === given ? "that folder" : `it is ${normal}, which`} holds what the service's container needs itself (${[...NOT_THEMSELVES, ...CONTAINER_DIRS].join(", ")} and below are refused): give a folder of your data instead.`,
      { field },
    );
  }
}

/**
 * The `--mount` folders of a run, checked (their characters were checked with the request) by the
 * data-path rule, read-only folders that must exist on this machine; the service sees each at the
 * path given, and on this machine the bind's source is the real folder (links resolved). On a
 * cluster the job checks, on its node, that each is there.
 */
export function checkMounts(mounts: readonly string[], capabilities: Pick<EngineCapabilities, "dataPaths">, protectedHere: readonly ProtectedPlace[]): Mount[] {
  const seen = new Set<string>();
  return mounts.map((given) => {
    const source = checkDataPath(given, { option: "--mount", field: "mounts", access: "read", kind: "folder", mustExist: true }, capabilities, protectedHere);
    const target = posix.normalize(given).replace(/(.)\/+$/, "$1");
    checkContainerPlace(target, given, "--mount", "mounts");
    checkContainerPlace(source, given, "--mount", "mounts");
    if (seen.has(target)) throw badRequest(`--mount ${given} is given twice.`, { field: "mounts" });
    seen.add(target);
    return { source, target };
  });
}
