/**
 * What a scan of a profile's model folders finds, before interpretation. The local scanner and
 * the remote (SSH) scanner both produce this; `interpretScan` and `classify` then treat both alike.
 */

/** A file inside a snapshot, by its path relative to the snapshot folder. */
export interface SnapshotFile {
  path: string;
  /** Size of the file (of the blob a link points to). */
  size: number;
  /** A link whose target is missing (an interrupted or pruned download). */
  broken?: boolean;
}

/** What the classifier reads from a snapshot. */
export interface SnapshotFacts {
  files: SnapshotFile[];
  /** `config.json` (first 256 KiB) at the snapshot's top, when present. */
  config?: string;
  /** `README.md` (first 64 KiB) at the snapshot's top, when present: its front matter holds `pipeline_tag` (and an adapter's `base_model`). */
  readme?: string;
  /** PEFT's `adapter_config.json` (first 256 KiB) at the snapshot's top, when present. */
  adapterConfig?: string;
  /** First 4 bytes, as lower-case hex, of each `.gguf` and `.bin` file, by path. */
  magics: Record<string, string>;
  /** `model.safetensors.index.json` at the snapshot's top, when present. */
  index?: string;
  /** The first bytes of the weight files the model facts are read from (see facts/weight-files.ts), by path. */
  heads?: Record<string, Uint8Array>;
  /** Names and sizes of the files the model facts come from, condensed: the same key, the same facts. */
  factsKey?: string;
  /** The registry already holds the facts for `factsKey`: the weight headers were not read again. */
  factsCached?: boolean;
}

/** Per snapshot folder, the facts key the registry holds facts for (a scan skips reading those headers again). */
export type KnownFacts = ReadonlyMap<string, string>;

export interface ScannedSnapshot {
  /** The folder name: a commit id when the cache is well-formed. */
  name: string;
  path: string;
  /** Why it could not be read, when it could not. */
  problem?: string;
  facts: SnapshotFacts;
}

export interface ScannedRepo {
  /** The folder name, `models--<owner>--<name>`. */
  folder: string;
  path: string;
  problem?: string;
  /** refs/<name> → the commit it names. */
  refs: Record<string, string>;
  snapshots: ScannedSnapshot[];
  /** Commits whose download by svc has not finished (a `.svc-partial-<commit>` marker exists). */
  partial: string[];
  /** Per commit, every file path the hub listed for it, as svc kept it at download (`.svc-files-<commit>.json`). */
  fileLists: Record<string, string[]>;
}

export interface ScannedRoot {
  /** The model folder, e.g. `<home>/models` (expanded on the remote host). */
  root: string;
  /** `missing`: the folder does not exist (nothing there yet); any other text: why it could not be read. */
  problem?: string;
  repos: ScannedRepo[];
}

/** Limits on what is read from each snapshot; the same for the local and the remote scan. */
export const READ_LIMITS = { config: 256 * 1024, readme: 64 * 1024, magic: 4 } as const;

/** Files whose first bytes are read for the classifier. */
export const MAGIC_FILE = /\.(gguf|bin)$/i;

/** Marker svc keeps at `<repo folder>/.svc-partial-<commit>` while a download is under way. */
export const PARTIAL_MARKER_PREFIX = ".svc-partial-";

/**
 * `<repo folder>/.svc-files-<commit>.json`: `{ files: [every path the hub listed], include, exclude }`,
 * written by svc at the end of each download, so that a snapshot downloaded with --include/--exclude
 * is known to be partial (the hub cache itself does not say).
 */
export const FILE_LIST_PREFIX = ".svc-files-";
export const FILE_LIST_SUFFIX = ".json";
/** Larger file lists are not read (a repo of some 40,000 files). */
export const FILE_LIST_READ_LIMIT = 4 * 1024 * 1024;

/** Paths of `listed` that the snapshot lacks (a broken link counts as lacking). */
export function missingFiles(listed: string[], facts: SnapshotFacts): string[] {
  const present = new Set(facts.files.filter((f) => !f.broken).map((f) => f.path));
  return listed.filter((path) => !present.has(path));
}
