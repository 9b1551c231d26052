import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { ApiError } from "@svc/contracts";

/** The profile's local folders failed a check; `field` names the attribute to fix. */
export const dirFailed = (field: string, message: string) => new ApiError(422, "local_dir_failed", message, { field });

function errno(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EROFS" ? "read-only file system" : (code ?? String(error));
}

/**
 * A folder svc writes to: created (with parents) when missing, then it must be a writable folder.
 * Returns a notice when it was created.
 */
export function ensureWritableDir(path: string, field: string, label = field): string | undefined {
  let created: string | undefined;
  if (!existsSync(path)) {
    try {
      mkdirSync(path, { recursive: true });
      created = `Created ${label} ${path}.`;
    } catch (error) {
      throw dirFailed(field, `${label} ${path} does not exist and cannot be created (${errno(error)}): create it yourself or choose a folder you can write to.`);
    }
  }
  if (!statSync(path).isDirectory()) throw dirFailed(field, `${label} ${path} exists but is not a folder: choose a folder.`);
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw dirFailed(field, `${label} ${path} is not writable (${errno(error)}): fix its permissions or choose a folder you own.`);
  }
  return created;
}

/** A folder svc only reads from: it must exist (svc never creates it), be a folder, and be readable. */
export function checkReadableDir(path: string, field: string, label = field): void {
  if (!existsSync(path)) {
    throw dirFailed(field, `${label} ${path} does not exist. svc never creates the cache folder: create it, or give an existing folder (it may be the same as the home folder).`);
  }
  if (!statSync(path).isDirectory()) throw dirFailed(field, `${label} ${path} is not a folder: give a folder.`);
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
  } catch (error) {
    throw dirFailed(field, `${label} ${path} is not readable (${errno(error)}): fix its permissions or choose another folder.`);
  }
}

/** Checks a local profile's folders (spec §2.2): home_dir created when missing and writable; cache_dir existing and readable. */
export function checkLocalProfile(homeDir: string, cacheDir: string): string[] {
  // The cache first, so a failing check leaves nothing behind (not even a new home folder) —
  // unless the cache is the home folder or inside it, which the home check creates.
  const cacheInHome = cacheDir === homeDir || cacheDir.startsWith(`${homeDir}/`);
  if (!cacheInHome) checkReadableDir(cacheDir, "cache_dir");
  const created = ensureWritableDir(homeDir, "home_dir");
  if (cacheInHome) checkReadableDir(cacheDir, "cache_dir");
  return created ? [created] : [];
}
