import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, posix } from "node:path";
import { badRequest, profileFolders, type Profile } from "@svc/contracts";

/** Folders a speech service's input folder may be in besides its profile's home (SVC_INPUT_DIRS, colon-separated). */
export function inputRootsFromEnv(env: Record<string, string | undefined>): string[] {
  return (env.SVC_INPUT_DIRS ?? "").split(":").map((root) => root.trim()).filter(Boolean);
}

/** `path` with every link resolved, the part that does not exist yet appended as written. */
function resolvedOnThisMachine(path: string): string {
  const missing: string[] = [];
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(realpathSync(existing), ...missing);
}

const within = (path: string, root: string) => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/**
 * The input folder a speech service reads (and, on Docker, that is created and mounted into its
 * container): it must be the profile's home or a folder under it, or under one of `roots`. On
 * this machine links are resolved first, so a link inside home cannot lead elsewhere; on a
 * cluster the path is judged as written (`..` refused). Returns the folder to use.
 */
export function checkInputDir(profile: Profile, inputDir: string, roots: string[], option = "--input-dir", field = "inputDir"): string {
  const home = profileFolders(profile).home;
  const allowed = [home, ...roots];
  const refuse = () =>
    badRequest(
      `${option} ${inputDir}: give a folder under the profile's home (${home})${roots.length ? ` or under ${roots.join(", ")}` : ""}. ` +
        "Other folders can be allowed with SVC_INPUT_DIRS (colon-separated) in the environment of svc start.",
      { field },
    );
  if (profile.schema === "local") {
    if (!isAbsolute(inputDir)) throw badRequest(`${option} ${JSON.stringify(inputDir)}: give an absolute path.`, { field });
    const real = resolvedOnThisMachine(inputDir);
    if (!allowed.some((root) => isAbsolute(root) && within(real, resolvedOnThisMachine(root)))) throw refuse();
    return real;
  }
  if (inputDir.split("/").includes("..")) throw refuse();
  const normal = posix.normalize(inputDir);
  if (!allowed.some((root) => within(normal, posix.normalize(root)))) throw refuse();
  return normal;
}
