import { isRepoId } from "@svc/contracts";

/** Folder prefix of model repos in a Hugging Face hub cache (datasets--, spaces-- are other kinds). */
export const MODEL_FOLDER_PREFIX = "models--";

/** `owner/name` → `models--owner--name`, the hub cache's folder for a model repo. */
export function repoFolderName(repo: string): string {
  const [owner, name] = repo.split("/");
  return `${MODEL_FOLDER_PREFIX}${owner}--${name}`;
}

/**
 * `models--owner--name` → `owner/name`. Owners never contain `--` (the hub forbids it), so the first
 * `--` after the prefix splits owner from name and the name keeps any `--` of its own
 * (`models--org--my--model` → `org/my--model`). Returns an error text when the folder is not a repo.
 */
export function repoFromFolderName(folder: string): { repo: string } | { error: string } {
  if (!folder.startsWith(MODEL_FOLDER_PREFIX)) return { error: "not a model folder (models--<owner>--<name>)" };
  const rest = folder.slice(MODEL_FOLDER_PREFIX.length);
  const split = rest.indexOf("--");
  if (split < 0) return { error: "the folder name has no owner (models--<owner>--<name>); svc needs <owner>/<name> repo ids" };
  const repo = `${rest.slice(0, split)}/${rest.slice(split + 2)}`;
  if (!isRepoId(repo)) return { error: `${repo} is not a valid repo id` };
  return { repo };
}
