import { Type, type Static } from "@sinclair/typebox";
import { TASKS, TaskName, literalUnion } from "./services";
import { FILE_PATTERN_RULE } from "./file-patterns";
import { ModelFacts } from "./model-facts";
import { AdapterBase, AdapterFacts, ModelKind } from "./adapters";

/**
 * Models (spec §2.3): the model registry kept by model-svc. One row per (repo, revision, profile),
 * found in a profile's model folders (Hugging Face hub cache layout) or downloaded by `svc model add`.
 * Shared by model-svc, the gateway's pages, the client and the CLI.
 */

/** A model's IMAGE (spec §1.2): the task it serves. */
export const ModelImage = literalUnion(TASKS, { description: "The task the model serves." });

/**
 * `<owner>/<name>`: letters, digits, `.`, `_`, `-`, each part starting with a letter or digit, at most
 * 96 characters each; no `..` anywhere and no `--` in the owner (the cache folder name
 * `models--<owner>--<name>` splits at the first `--`). The name may contain `--`.
 */
export const REPO_ID_PATTERN = "^(?!.*\\.\\.)(?![^/]*--[^/]*/)[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$";
export const REPO_ID_RULE = "<owner>/<name>, e.g. openai/whisper-tiny: letters, digits, '.', '_' or '-', each part starting with a letter or digit, no '..' and no '--' in the owner";

/** A branch, tag or commit: `/`-separated parts of letters, digits, `.`, `_`, `-`, each starting with a letter or digit; no `..`. */
export const REVISION_PATTERN = "^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)*$";
export const REVISION_RULE = "a branch, tag or 40-character commit id, e.g. main or 3f1c…: letters, digits, '.', '_', '-' and '/' between parts, each part starting with a letter or digit, at most 128 characters, no '..'";
export const COMMIT_PATTERN = "^[0-9a-f]{40}$";
export const DEFAULT_REVISION = "main";

const repoIdRegex = new RegExp(REPO_ID_PATTERN);
const revisionRegex = new RegExp(REVISION_PATTERN);
export const isRepoId = (text: string) => repoIdRegex.test(text);
export const isRevision = (text: string) => text.length <= 128 && revisionRegex.test(text);
export const isCommit = (text: string) => /^[0-9a-f]{40}$/.test(text);

export const RepoId = Type.String({ pattern: REPO_ID_PATTERN, maxLength: 193, description: `Model repository id: ${REPO_ID_RULE}.`, examples: ["openai/whisper-tiny"] });
export const Revision = Type.String({ pattern: REVISION_PATTERN, maxLength: 128, description: `Model revision: ${REVISION_RULE}.`, examples: ["main"] });
export const Commit = Type.String({ pattern: COMMIT_PATTERN, description: "Exact revision: a 40-character hexadecimal commit id." });

/** One row of the model registry. */
export const Model = Type.Object(
  {
    repo: RepoId,
    revision: Commit,
    profile: Type.String({ description: "Profile the model is available to." }),
    image: ModelImage,
    modelDir: Type.String({ description: "The snapshot folder (on the profile's host): `<models>/models--<owner>--<name>/snapshots/<revision>`." }),
    sizeBytes: Type.Integer({ minimum: 0, description: "Total size of the snapshot's files." }),
    partial: Type.Boolean({
      description:
        "Files of the repo at this revision are missing from the snapshot: it was downloaded with --include/--exclude. " +
        "Known for snapshots svc downloaded (it keeps the hub's file list beside them); false otherwise.",
    }),
    seenAt: Type.String({ format: "date-time", description: "When the snapshot was first registered." }),
    facts: Type.Optional(ModelFacts),
    /** Set when the snapshot is a LoRA adapter, not a model (served on a base, never on its own). */
    adapter: Type.Optional(AdapterFacts),
    /** An adapter's base as the registry has it for the same profile (worked out at each listing). */
    adapterBase: Type.Optional(AdapterBase),
  },
  { $id: "Model" },
);
export type Model = Static<typeof Model>;

/** Filters of GET /api/models. */
export const ModelQuery = Type.Object({
  profile: Type.Optional(Type.String({ maxLength: 63, description: "Only this profile's models." })),
  image: Type.Optional(TaskName),
  repo: Type.Optional(Type.String({ maxLength: 193, description: "Only this repository." })),
  kind: Type.Optional(ModelKind),
});
export type ModelQuery = Static<typeof ModelQuery>;

/** Something found in a model folder that is not registered (or registered without all its facts), and why. */
export const ScanIssue = Type.Object({
  profile: Type.String(),
  path: Type.String({ description: "The folder or file concerned (on the profile's host)." }),
  repo: Type.Optional(Type.String()),
  revision: Type.Optional(Type.String()),
  reason: Type.String(),
  registered: Type.Optional(
    Type.Boolean({ description: "The model was registered all the same: only its facts are incomplete (a file the reason names could not be read)." }),
  ),
}, { $id: "ScanIssue" });
export type ScanIssue = Static<typeof ScanIssue>;

/** Body of POST /api/models/refresh. */
export const RefreshRequest = Type.Object(
  { profile: Type.Optional(Type.String({ maxLength: 63, description: "Refresh only this profile; default: every profile." })) },
  { $id: "RefreshRequest", additionalProperties: false },
);
export type RefreshRequest = Static<typeof RefreshRequest>;

export const ProfileRefresh = Type.Object({
  profile: Type.String(),
  /** `ok`: scanned and reconciled; `failed`: could not scan, its rows were left as they were. */
  status: Type.Union([Type.Literal("ok"), Type.Literal("failed")]),
  error: Type.Optional(Type.String()),
  scannedDirs: Type.Array(Type.String(), { description: "The model folders that were scanned." }),
  added: Type.Integer(),
  removed: Type.Integer(),
  updated: Type.Integer({ description: "Rows whose image, folder, size or facts changed on disk." }),
  unchanged: Type.Integer(),
  sshRoundTrips: Type.Integer({ description: "Remote commands run for the scan (slurm profiles: 1)." }),
  durationMs: Type.Number(),
}, { $id: "ProfileRefresh" });
export type ProfileRefresh = Static<typeof ProfileRefresh>;

/** Answer of POST /api/models/refresh. */
export const RefreshReport = Type.Object({
  profiles: Type.Array(ProfileRefresh),
  issues: Type.Array(ScanIssue, {
    description: "What was found but not registered (unclassifiable, empty, unreadable, refs without snapshot…), and models registered with incomplete facts (`registered: true`: a corrupt weight header, a shard missing).",
  }),
  /** Rows removed because their profile no longer exists (full refresh only). */
  removedForMissingProfiles: Type.Integer(),
}, { $id: "RefreshReport" });
export type RefreshReport = Static<typeof RefreshReport>;

export const FilePatternList = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 64, description: `${what}: ${FILE_PATTERN_RULE}.`, examples: [["*.gguf"]] });

/** Body of POST /api/models/downloads. */
export const DownloadRequest = Type.Object(
  {
    repo: RepoId,
    revision: Type.Optional(Revision),
    profile: Type.Optional(Type.String({ maxLength: 63, description: "Local profile to download into (its home_dir/models); default: `default`." })),
    include: Type.Optional(FilePatternList("Download only the files matching one of these")),
    exclude: Type.Optional(FilePatternList("Leave out the files matching one of these")),
  },
  { additionalProperties: false },
);
export type DownloadRequest = Static<typeof DownloadRequest>;

export const DownloadState = Type.Union([Type.Literal("running"), Type.Literal("completed"), Type.Literal("failed")]);
export type DownloadState = Static<typeof DownloadState>;

/** A download task of model-svc. Tasks live in memory: a restart forgets them (the files stay and a new add resumes). */
export const DownloadTask = Type.Object(
  {
    id: Type.String(),
    repo: RepoId,
    requestedRevision: Type.String({ description: "As asked: a branch, tag or commit." }),
    revision: Commit,
    profile: Type.String(),
    state: DownloadState,
    bytesDone: Type.Integer({ description: "Bytes present and verified or being written, including those kept from an earlier interrupted run." }),
    bytesTotal: Type.Integer(),
    bytesResumed: Type.Integer({ description: "Bytes that were already on disk when this task started." }),
    filesDone: Type.Integer(),
    filesTotal: Type.Integer({ description: "Files to download: those the patterns select." }),
    filesSkipped: Type.Integer({ description: "Files of the repo left out by include/exclude." }),
    include: Type.Array(Type.String(), { description: "The include patterns, as given (none: every file)." }),
    exclude: Type.Array(Type.String(), { description: "The exclude patterns, as given." }),
    startedAt: Type.String({ format: "date-time" }),
    finishedAt: Type.Optional(Type.String({ format: "date-time" })),
    error: Type.Optional(Type.Object({ error: Type.String(), message: Type.String() })),
    model: Type.Optional(Model),
  },
  { $id: "DownloadTask" },
);
export type DownloadTask = Static<typeof DownloadTask>;

/** Error codes of the model routes, beyond `invalid_request`, `not_found` and `conflict`. */
export const MODEL_ERROR_CODES = [
  "download_local_only",
  "no_matching_files",
  "hub_not_found",
  "hub_access_denied",
  "hub_unreachable",
  "hub_error",
  "download_failed",
  "no_space",
  "checksum_mismatch",
  "unclassified_model",
  "service_unavailable",
] as const;
