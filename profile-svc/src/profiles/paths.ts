import { isAbsolute, join, posix, resolve } from "node:path";
import { badRequest } from "@svc/contracts";

/** A local folder path: `~` means the user's home; must then be absolute. Returns it normalised. */
export function localPath(raw: string, field: string, userHome: string): string {
  const text = raw.trim();
  const expanded = text === "~" ? userHome : text.startsWith("~/") ? join(userHome, text.slice(2)) : text;
  if (!isAbsolute(expanded)) throw badRequest(`${field} "${raw}" is not an absolute path: give a full path such as /data/models or ~/models.`, { field });
  return resolve(expanded);
}

/** A folder path on the Slurm server: absolute, or `~` / `~/…` for the remote user's home. */
export function remotePath(raw: string, field: string): string {
  const text = raw.trim();
  if (text === "~") return text;
  if (!(text.startsWith("/") || text.startsWith("~/"))) {
    throw badRequest(`${field} "${raw}" is not an absolute path on the server: give a full path such as /scratch/me/svc, or ~/svc.`, { field });
  }
  const normalised = posix.normalize(text);
  return normalised.length > 1 ? normalised.replace(/\/+$/, "") : normalised;
}
