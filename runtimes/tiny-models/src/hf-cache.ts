import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SnapshotFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Lays files out as the Hugging Face hub cache does: `models--<owner>--<name>/blobs/<sha256>`,
 * `snapshots/<commit>/<file>` as relative symlinks to the blobs, and `refs/main` naming the commit.
 * The commit is derived from the content, so the same files always give the same snapshot path.
 * Returns the snapshot folder; rewrites nothing when it is already complete.
 */
export function writeSnapshot(cacheDir: string, repoId: string, files: SnapshotFile[]): string {
  const [owner, name] = repoId.split("/");
  const repoDir = join(cacheDir, `models--${owner}--${name}`);
  const blobs = files.map((file) => ({ ...file, sha256: createHash("sha256").update(file.bytes).digest("hex") }));
  const commit = createHash("sha1")
    .update(blobs.map((blob) => `${blob.name}:${blob.sha256}`).join("\n"))
    .digest("hex");
  const snapshotDir = join(repoDir, "snapshots", commit);

  mkdirSync(join(repoDir, "blobs"), { recursive: true });
  mkdirSync(join(repoDir, "refs"), { recursive: true });
  mkdirSync(snapshotDir, { recursive: true });
  for (const blob of blobs) {
    const blobPath = join(repoDir, "blobs", blob.sha256);
    if (!existsSync(blobPath)) writeFileSync(blobPath, blob.bytes);
    const link = join(snapshotDir, blob.name);
    if (!existsSync(link)) {
      rmSync(link, { force: true });
      symlinkSync(join("..", "..", "blobs", blob.sha256), link);
    }
  }
  const refPath = join(repoDir, "refs", "main");
  if (!existsSync(refPath) || readFileSync(refPath, "utf8") !== commit) writeFileSync(refPath, commit);
  return snapshotDir;
}
