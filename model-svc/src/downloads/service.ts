import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import {
  ApiError,
  badRequest,
  notFound,
  DEFAULT_REVISION,
  describeFilePatterns,
  REPO_ID_RULE,
  REVISION_RULE,
  isRepoId,
  isRevision,
  type DownloadTask,
  type Model,
} from "@svc/contracts";
import { classify } from "../discovery/classify";
import { repoFolderName } from "../discovery/repo-folder";
import { snapshotFacts } from "../discovery/scan-local";
import { FILE_LIST_PREFIX, FILE_LIST_SUFFIX, missingFiles, PARTIAL_MARKER_PREFIX } from "../discovery/types";
import { HubClient, type HubFile } from "../hub/client";
import { hubSettings } from "../hub/endpoint";
import { HubError } from "../hub/errors";
import type { ModelService } from "../models/service";
import { profileOrDefault, type ProfileSource } from "../profiles/source";
import { blobName, DownloadError, fetchBlob } from "./blob-fetch";
import { selected } from "./file-patterns";

export interface DownloadServiceOptions {
  models: ModelService;
  profiles: ProfileSource;
  /** The hub client for one download; default: one for HF_ENDPOINT / HF_TOKEN of the environment. */
  hub?: () => HubClient;
  /** How many finished tasks are kept for GET (oldest forgotten first). */
  keepFinished?: number;
}

interface DownloadInput {
  repo: string;
  revision?: string;
  profile?: string;
  include?: string[];
  exclude?: string[];
}

/** What one download fetches: the selected files, out of all the hub lists for the commit. */
interface DownloadPlan {
  hub: HubClient;
  files: HubFile[];
  allFiles: HubFile[];
  repoDir: string;
}

/** A path inside a repo as the hub lists it, safe to join under a snapshot folder. */
function isSafeRepoPath(path: string): boolean {
  if (!path || path.length > 1024 || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

function hubApiError(error: HubError): ApiError {
  switch (error.kind) {
    case "not-found":
      return new ApiError(404, "hub_not_found", error.message);
    case "access-denied":
      return new ApiError(403, "hub_access_denied", error.message);
    case "unreachable":
      return new ApiError(502, "hub_unreachable", error.message);
    default:
      return new ApiError(502, "hub_error", error.message);
  }
}

/**
 * `svc model add`: downloads a repo at a revision from the hub into a local profile's
 * `<home_dir>/models` in the hub cache layout (blobs, snapshot links, refs/<branch>), as a task whose
 * progress GET reports. Checks run before the task starts (so bad input and hub refusals are
 * immediate 4xx answers); the transfer resumes `.incomplete` blobs; the snapshot is registered
 * only when every file is in place and verified.
 */
export class DownloadService {
  private readonly tasks = new Map<string, DownloadTask>();
  /** Per repo folder: downloads of one repo run one after another (they may share blobs). */
  private readonly repoQueues = new Map<string, Promise<unknown>>();
  private readonly hub: () => HubClient;
  private readonly keepFinished: number;

  constructor(private readonly options: DownloadServiceOptions) {
    this.hub = options.hub ?? (() => new HubClient(hubSettings()));
    this.keepFinished = options.keepFinished ?? 100;
  }

  get(id: string): DownloadTask {
    const task = this.tasks.get(id);
    if (!task) throw notFound(`No download task ${id} (tasks are forgotten when svc restarts; a new \`svc model add\` resumes the files).`);
    return { ...task };
  }

  list(): DownloadTask[] {
    return [...this.tasks.values()].map((task) => ({ ...task })).reverse();
  }

  async start(input: DownloadInput): Promise<DownloadTask> {
    const repo = input.repo.trim();
    const requestedRevision = (input.revision ?? "").trim() || DEFAULT_REVISION;
    if (!isRepoId(repo)) throw badRequest(`${JSON.stringify(input.repo)} is not a model repo id: expected ${REPO_ID_RULE}.`);
    if (!isRevision(requestedRevision)) throw badRequest(`${JSON.stringify(input.revision)} is not a revision: expected ${REVISION_RULE}.`);
    const profileName = profileOrDefault(input.profile);
    const profile = await this.options.profiles.get(profileName);
    if (profile.schema !== "local") {
      throw new ApiError(
        400,
        "download_local_only",
        `Profile ${profile.name} is a slurm profile: svc model add downloads into local profiles only. ` +
          `Download the model on ${profile.host} into ${profile.home}/models or ${profile.cache}/models (e.g. run svc model add there, or huggingface-cli download with HF_HOME), ` +
          `then run \`svc model ls --refresh --profile ${profile.name}\`.`,
      );
    }
    const patterns = { include: input.include ?? [], exclude: input.exclude ?? [] };
    const hub = this.hub();
    let commit: string;
    let allFiles: HubFile[];
    let files: HubFile[];
    try {
      commit = (await hub.modelInfo(repo, requestedRevision)).sha;
      allFiles = await hub.listFiles(repo, commit);
      files = allFiles.filter((f) => selected(f.path, patterns));
      if (files[0]) await hub.probe(repo, commit, files[0].path);
    } catch (error) {
      if (error instanceof HubError) throw hubApiError(error);
      throw error;
    }
    const unsafe = allFiles.find((f) => !isSafeRepoPath(f.path) || !/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(blobName(f)) || !Number.isSafeInteger(f.size) || f.size < 0);
    if (unsafe) throw new ApiError(502, "hub_error", `The hub listed a file svc will not write: ${JSON.stringify(unsafe.path)}.`);
    if (allFiles.length === 0) throw new ApiError(404, "hub_not_found", `${repo} at ${requestedRevision} has no files on ${hub.endpoint}.`);
    if (files.length === 0) {
      const sample = allFiles.slice(0, 8).map((f) => f.path).join(", ");
      throw new ApiError(
        400,
        "no_matching_files",
        `No file of ${repo} at ${requestedRevision} is selected by ${describeFilePatterns(patterns)}: its ${allFiles.length} files are ${sample}${allFiles.length > 8 ? ", …" : ""}. ` +
          "Patterns match the whole path in the repo, as huggingface-cli's do (e.g. '*.gguf', '*Q4_K_M*', 'onnx/').",
      );
    }

    const samePatterns = (t: DownloadTask) => JSON.stringify([t.include, t.exclude]) === JSON.stringify([patterns.include, patterns.exclude]);
    const running = [...this.tasks.values()].find(
      (t) => t.state === "running" && t.profile === profile.name && t.repo === repo && t.revision === commit && samePatterns(t),
    );
    if (running) return { ...running };

    const modelsDir = join(profile.home_dir, "models");
    const repoDir = join(modelsDir, repoFolderName(repo));
    try {
      mkdirSync(join(repoDir, "blobs"), { recursive: true });
    } catch (error) {
      throw new ApiError(422, "download_failed", `Cannot create ${repoDir}: ${(error as Error).message}. Check the profile's home_dir.`);
    }
    const present = (f: HubFile) => {
      const blob = join(repoDir, "blobs", blobName(f));
      if (existsSync(blob) && statSync(blob).size === f.size) return f.size;
      return existsSync(`${blob}.incomplete`) ? Math.min(statSync(`${blob}.incomplete`).size, f.size) : 0;
    };
    const resumed = files.reduce((sum, f) => sum + present(f), 0);
    const task: DownloadTask = {
      id: randomUUID(),
      repo,
      requestedRevision,
      revision: commit,
      profile: profile.name,
      state: "running",
      bytesDone: resumed,
      bytesTotal: files.reduce((sum, f) => sum + f.size, 0),
      bytesResumed: resumed,
      filesDone: 0,
      filesTotal: files.length,
      filesSkipped: allFiles.length - files.length,
      include: patterns.include,
      exclude: patterns.exclude,
      startedAt: new Date().toISOString(),
    };
    this.tasks.set(task.id, task);
    this.forgetOld();
    const previous = this.repoQueues.get(repoDir) ?? Promise.resolve();
    const run = previous.then(() => this.run(task, { hub, files, allFiles, repoDir }));
    this.repoQueues.set(repoDir, run.catch(() => undefined));
    return { ...task };
  }

  /** Resolves when the task has finished (tests). */
  async settled(id: string): Promise<DownloadTask> {
    while (this.get(id).state === "running") await Bun.sleep(10);
    return this.get(id);
  }

  private forgetOld() {
    const finished = [...this.tasks.values()].filter((t) => t.state !== "running");
    for (const task of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) this.tasks.delete(task.id);
  }

  private async run(task: DownloadTask, { hub, files, allFiles, repoDir }: DownloadPlan): Promise<void> {
    const marker = join(repoDir, `${PARTIAL_MARKER_PREFIX}${task.revision}`);
    const finish = (patch: Partial<DownloadTask>) => Object.assign(task, { ...patch, finishedAt: new Date().toISOString() });
    try {
      writeFileSync(marker, `svc download ${task.id} started ${task.startedAt}\n`);
      // Bytes already on disk were counted at the start; count only new ones from here.
      task.bytesDone = 0;
      for (const file of files) {
        const blobPath = join(repoDir, "blobs", blobName(file));
        if (!(existsSync(blobPath) && statSync(blobPath).size === file.size)) {
          const before = existsSync(`${blobPath}.incomplete`) ? Math.min(statSync(`${blobPath}.incomplete`).size, file.size) : 0;
          task.bytesDone += before;
          await fetchBlob({ hub, repo: task.repo, commit: task.revision, file, blobPath, onBytes: (n) => (task.bytesDone += n) });
        } else task.bytesDone += file.size;
        task.filesDone++;
      }
      const snapshotDir = join(repoDir, "snapshots", task.revision);
      for (const file of files) {
        const link = join(snapshotDir, file.path);
        mkdirSync(dirname(link), { recursive: true });
        const target = relative(dirname(link), join(repoDir, "blobs", blobName(file)));
        let current: string | undefined;
        try {
          current = readlinkSync(link);
        } catch {}
        if (current !== target) {
          rmSync(link, { force: true });
          symlinkSync(target, link);
        }
      }
      if (task.requestedRevision !== task.revision) {
        const ref = join(repoDir, "refs", task.requestedRevision);
        mkdirSync(dirname(ref), { recursive: true });
        writeFileSync(ref, task.revision);
      }
      // The hub's whole file list stays beside the snapshot, so a refresh can tell it is partial.
      const fileList = join(repoDir, `${FILE_LIST_PREFIX}${task.revision}${FILE_LIST_SUFFIX}`);
      writeFileSync(`${fileList}.tmp`, JSON.stringify({ files: allFiles.map((f) => f.path), include: task.include, exclude: task.exclude }));
      renameSync(`${fileList}.tmp`, fileList);
      rmSync(marker, { force: true });
      const { facts } = snapshotFacts(snapshotDir);
      const kind = classify(facts);
      if (kind.image === null) {
        const filtered = task.filesSkipped > 0 ? ` (${describeFilePatterns(task)} left out ${task.filesSkipped} files; config.json or README.md tell a model's kind)` : "";
        throw new DownloadError("unclassified_model", `${task.repo} was downloaded to ${snapshotDir} but not registered: ${kind.reason}${filtered}.`);
      }
      const model: Model = await this.options.models.register(task.profile, {
        repo: task.repo,
        revision: task.revision,
        image: kind.image,
        modelDir: snapshotDir,
        sizeBytes: facts.files.reduce((sum, f) => sum + f.size, 0),
        partial: missingFiles(allFiles.map((f) => f.path), facts).length > 0,
        source: facts,
      });
      finish({ state: "completed", bytesDone: task.bytesTotal, model });
    } catch (error) {
      const known = error instanceof DownloadError;
      if (!known) console.error(`[model-svc] download ${task.id} of ${task.repo}:`, error);
      finish({
        state: "failed",
        error: known
          ? { error: error.code, message: error.message }
          : { error: "download_failed", message: `The download failed: ${(error as Error).message}. Run the same \`svc model add\` again to resume it.` },
      });
    }
  }
}
