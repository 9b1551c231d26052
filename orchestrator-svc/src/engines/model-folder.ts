import { basename, dirname } from "node:path";

/**
 * What to make visible for a model (a container mount, an Apptainer bind): a Hugging Face
 * snapshot's files are links into the repo's `blobs/`, so the whole `models--<owner>--<name>`
 * folder, read-only, at the same path.
 */
export function modelMount(modelDir: string): string {
  const snapshots = dirname(modelDir);
  return basename(snapshots) === "snapshots" ? dirname(snapshots) : modelDir;
}
