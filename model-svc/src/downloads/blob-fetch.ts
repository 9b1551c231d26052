import { createHash, type Hash } from "node:crypto";
import { existsSync, statSync, truncateSync, renameSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import type { HubClient, HubFile } from "../hub/client";
import { HubError } from "../hub/errors";

/** A download step failed; `code` is the API error code, the files on disk stay for a resume unless said otherwise. */
export class DownloadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DownloadError";
  }
}

/** The API error code of a hub failure. */
export function hubErrorCode(error: HubError): string {
  return { "not-found": "hub_not_found", "access-denied": "hub_access_denied", unreachable: "hub_unreachable", "bad-answer": "hub_error", dropped: "download_failed" }[error.kind];
}

/** The blob's name in the cache: the LFS sha256, else the git blob id (as huggingface_hub names them). */
export const blobName = (file: HubFile) => file.lfsSha256 ?? file.oid;

/** The checksum a blob is verified with: sha256 for LFS files, the git blob sha1 otherwise. */
function newHash(file: HubFile): Hash {
  if (file.lfsSha256) return createHash("sha256");
  return createHash("sha1").update(`blob ${file.size}\0`);
}

async function hashExisting(path: string, hash: Hash): Promise<void> {
  const reader = Bun.file(path).stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : undefined);

function writeFailure(error: unknown, path: string): DownloadError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC" || code === "EDQUOT") {
    return new DownloadError("no_space", `No space left on the device of ${path}: free some space and run the same \`svc model add\` again; it resumes where it stopped.`);
  }
  return new DownloadError("download_failed", `Cannot write ${path}: ${(error as Error).message}.`);
}

export interface FetchBlobOptions {
  hub: HubClient;
  repo: string;
  commit: string;
  file: HubFile;
  /** The finished blob's path; `<blob>.incomplete` holds a partial one (as huggingface_hub does). */
  blobPath: string;
  /** Called with the number of new bytes written, as they arrive. */
  onBytes: (count: number) => void;
}

/**
 * Fetches one file into its blob: resumes `<blob>.incomplete` with a range request, verifies the
 * size and the checksum (sha256 for LFS, git sha1 otherwise), then renames it into place. A cut
 * connection or a full disk keeps the partial file; a checksum mismatch deletes it.
 */
export async function fetchBlob({ hub, repo, commit, file, blobPath, onBytes }: FetchBlobOptions): Promise<void> {
  const partial = `${blobPath}.incomplete`;
  let offset = sizeOf(partial) ?? 0;
  if (offset > file.size) {
    truncateSync(partial, 0);
    offset = 0;
  }
  let hash = newHash(file);
  if (offset > 0) await hashExisting(partial, hash);
  if (offset < file.size || !existsSync(partial)) {
    let response: Response;
    try {
      response = await hub.download(repo, commit, file.path, offset);
    } catch (error) {
      if (error instanceof HubError) throw new DownloadError(hubErrorCode(error), error.message);
      throw error;
    }
    const servedCommit = response.headers.get("x-repo-commit");
    if (servedCommit && servedCommit !== commit) {
      await response.body?.cancel().catch(() => {});
      throw new DownloadError("hub_error", `The hub served ${file.path} of commit ${servedCommit} instead of ${commit}.`);
    }
    if (offset > 0 && response.status !== 206) {
      // The range was not honoured: the body is the whole file, so start it again.
      truncateSync(partial, 0);
      hash = newHash(file);
      onBytes(-offset);
      offset = 0;
    }
    let handle;
    try {
      handle = await open(partial, "a");
    } catch (error) {
      throw writeFailure(error, partial);
    }
    let written = offset;
    try {
      const reader = response.body?.getReader();
      while (reader) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          const resume = `${written} of ${file.size} bytes of ${file.path} are kept: run the same \`svc model add\` again to resume.`;
          if (error instanceof HubError) throw new DownloadError(hubErrorCode(error), `${error.message} ${resume}`);
          throw new DownloadError("download_failed", `The connection to the hub dropped while fetching ${file.path}; ${resume}`);
        }
        if (chunk.done) break;
        try {
          await handle.write(chunk.value);
        } catch (error) {
          throw writeFailure(error, partial);
        }
        hash.update(chunk.value);
        written += chunk.value.length;
        onBytes(chunk.value.length);
      }
    } finally {
      await handle.close();
    }
  }
  const size = sizeOf(partial) ?? 0;
  if (size < file.size) {
    throw new DownloadError(
      "download_failed",
      `The hub sent ${file.path} short (${size} of ${file.size} bytes; the connection may have dropped): run the same \`svc model add\` again to resume.`,
    );
  }
  const digest = hash.digest("hex");
  if (size > file.size || digest !== blobName(file)) {
    rmSync(partial, { force: true });
    throw new DownloadError(
      "checksum_mismatch",
      `${file.path} does not match the hub's ${file.lfsSha256 ? "sha256" : "git checksum"} (${size} bytes, got ${digest}, expected ${blobName(file)}); the damaged file was deleted: run \`svc model add\` again.`,
    );
  }
  renameSync(partial, blobPath);
}
