import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync, lstatSync, type Dirent } from "node:fs";
import { join } from "node:path";
import {
  FILE_LIST_PREFIX,
  FILE_LIST_READ_LIMIT,
  FILE_LIST_SUFFIX,
  MAGIC_FILE,
  PARTIAL_MARKER_PREFIX,
  READ_LIMITS,
  type ScannedRepo,
  type ScannedRoot,
  type ScannedSnapshot,
  type SnapshotFacts,
  type KnownFacts,
} from "./types";
import { SAFETENSORS_HEADER_LIMIT } from "../facts/safetensors";
import { headLimit, INDEX_READ_LIMIT, isFactsSource, SAFETENSORS_INDEX, weightFiles } from "../facts/weight-files";
import { MODEL_FOLDER_PREFIX } from "./repo-folder";
import { ADAPTER_CONFIG } from "../facts/adapter-files";

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR") return "not a folder";
  return code ?? (error as Error).message;
}

/** Lists a folder, or returns why it cannot be listed. */
function list(path: string): Dirent[] | { problem: string } {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (error) {
    return { problem: describe(error) };
  }
}

/** The first `limit` bytes of a file, or undefined when it cannot be read. */
export function readHead(path: string, limit: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const n = readSync(fd, buffer, filled, limit - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Folders already walked, by device and inode: a link back to one of them (a symlink loop) or a
 * second link to the same folder is not walked again, so no tree of links can make a scan endless.
 */
class WalkedFolders {
  private readonly seen = new Set<string>();
  /** True the first time a folder is met. */
  first(stat: { dev: number; ino: number }): boolean {
    const key = `${stat.dev}:${stat.ino}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
  firstPath(path: string): boolean {
    try {
      return this.first(statSync(path));
    } catch {
      return false;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Files of a snapshot (following links to the blobs), recursively, relative to it, and what the model facts are read from unless `knownKey` says the registry has them. */
export function snapshotFacts(dir: string, knownKey?: string): { facts: SnapshotFacts; problem?: string } {
  const facts: SnapshotFacts = { files: [], magics: {} };
  const modified: string[] = [];
  let problem: string | undefined;
  const walked = new WalkedFolders();
  walked.firstPath(dir);
  const walk = (folder: string, prefix: string) => {
    const entries = list(folder);
    if (!Array.isArray(entries)) {
      problem ??= `${prefix || "."}: ${entries.problem}`;
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      let stat;
      try {
        stat = statSync(path);
      } catch {
        let size = 0;
        try {
          size = lstatSync(path).size;
        } catch {}
        facts.files.push({ path: rel, size, broken: true });
        continue;
      }
      if (stat.isDirectory()) {
        if (walked.first(stat)) walk(path, rel);
        continue;
      }
      facts.files.push({ path: rel, size: stat.size });
      if (isFactsSource(rel)) modified.push(`${rel}\t${stat.size}\t${stat.mtimeMs}`);
      if (MAGIC_FILE.test(entry.name)) {
        const head = readHead(path, READ_LIMITS.magic);
        if (head) facts.magics[rel] = head.toString("hex");
      }
    }
  };
  walk(dir, "");
  if (facts.files.some((f) => f.path === "config.json" && !f.broken)) facts.config = readHead(join(dir, "config.json"), READ_LIMITS.config)?.toString("utf8");
  if (facts.files.some((f) => f.path === "README.md" && !f.broken)) facts.readme = readHead(join(dir, "README.md"), READ_LIMITS.readme)?.toString("utf8");
  if (facts.files.some((f) => f.path === ADAPTER_CONFIG && !f.broken)) facts.adapterConfig = readHead(join(dir, ADAPTER_CONFIG), READ_LIMITS.config)?.toString("utf8");
  // A snapshot folder that cannot be listed has no facts (as in the remote script).
  if (problem?.startsWith(".:")) return { facts, problem };
  facts.factsKey = createHash("sha256").update(modified.sort().join("\n")).digest("hex");
  if (facts.factsKey === knownKey) facts.factsCached = true;
  else readFactsSources(dir, facts);
  return { facts, problem };
}

/** Reads the index and the weight headers the model facts come from (never the weights). */
function readFactsSources(dir: string, facts: SnapshotFacts): void {
  if (facts.files.some((f) => f.path === SAFETENSORS_INDEX && !f.broken)) facts.index = readHead(join(dir, SAFETENSORS_INDEX), INDEX_READ_LIMIT)?.toString("utf8");
  const weights = weightFiles(facts.files);
  if (!weights) return;
  facts.heads = {};
  for (const path of weights.paths) {
    const size = facts.files.find((f) => f.path === path)?.size ?? 0;
    const head = weights.format === "safetensors" ? readSafetensorsHead(join(dir, path)) : readHead(join(dir, path), Math.min(size, headLimit("gguf")));
    if (head) facts.heads[path] = head;
  }
}

/** The 8-byte length and the header it announces (as far as the format allows). */
function readSafetensorsHead(path: string): Buffer | undefined {
  const start = readHead(path, 8);
  if (!start || start.length < 8) return start;
  const length = start.readBigUInt64LE(0);
  return length > BigInt(SAFETENSORS_HEADER_LIMIT) ? start : readHead(path, 8 + Number(length));
}

function readRefs(dir: string, prefix = "", walked = new WalkedFolders()): Record<string, string> {
  const refs: Record<string, string> = {};
  const entries = list(dir);
  if (!Array.isArray(entries) || !walked.firstPath(dir)) return refs;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (isDirectory(path)) Object.assign(refs, readRefs(path, name, walked));
    else refs[name] = readHead(path, 256)?.toString("utf8").trim() ?? "";
  }
  return refs;
}

/** The paths of a `.svc-files-<commit>.json` file list; undefined when it cannot be read as one. */
export function readFileList(path: string): string[] | undefined {
  const head = readHead(path, FILE_LIST_READ_LIMIT + 1);
  if (!head || head.length > FILE_LIST_READ_LIMIT) return undefined;
  try {
    const files = (JSON.parse(head.toString("utf8")) as { files?: unknown }).files;
    return Array.isArray(files) && files.every((f) => typeof f === "string") ? files : undefined;
  } catch {
    return undefined;
  }
}

function scanRepo(root: string, folder: string, known: KnownFacts): ScannedRepo {
  const path = join(root, folder);
  const repo: ScannedRepo = { folder, path, refs: {}, snapshots: [], partial: [], fileLists: {} };
  const entries = list(path);
  if (!Array.isArray(entries)) return { ...repo, problem: entries.problem };
  for (const entry of entries) {
    if (entry.name.startsWith(PARTIAL_MARKER_PREFIX)) repo.partial.push(entry.name.slice(PARTIAL_MARKER_PREFIX.length));
    if (entry.name.startsWith(FILE_LIST_PREFIX) && entry.name.endsWith(FILE_LIST_SUFFIX)) {
      const files = readFileList(join(path, entry.name));
      if (files) repo.fileLists[entry.name.slice(FILE_LIST_PREFIX.length, -FILE_LIST_SUFFIX.length)] = files;
    }
  }
  if (entries.some((e) => e.name === "refs")) repo.refs = readRefs(join(path, "refs"));
  const snapshotsDir = join(path, "snapshots");
  if (!entries.some((e) => e.name === "snapshots")) return repo;
  const snapshots = list(snapshotsDir);
  if (!Array.isArray(snapshots)) return { ...repo, problem: `snapshots/: ${snapshots.problem}` };
  for (const entry of snapshots) {
    const snapshotPath = join(snapshotsDir, entry.name);
    if (!isDirectory(snapshotPath)) continue;
    const { facts, problem } = snapshotFacts(snapshotPath, known.get(snapshotPath));
    const snapshot: ScannedSnapshot = { name: entry.name, path: snapshotPath, facts };
    if (problem) snapshot.problem = problem;
    repo.snapshots.push(snapshot);
  }
  return repo;
}

/** Scans model folders on this machine (each a Hugging Face hub cache), in order. */
export function scanLocal(roots: string[], known: KnownFacts = new Map()): ScannedRoot[] {
  return roots.map((root) => {
    let stat;
    try {
      stat = statSync(root);
    } catch (error) {
      return { root, problem: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : describe(error), repos: [] };
    }
    if (!stat.isDirectory()) return { root, problem: "not a folder", repos: [] };
    const entries = list(root);
    if (!Array.isArray(entries)) return { root, problem: entries.problem, repos: [] };
    const repos = entries
      .filter((entry) => entry.name.startsWith(MODEL_FOLDER_PREFIX) && isDirectory(join(root, entry.name)))
      .map((entry) => scanRepo(root, entry.name, known));
    return { root, repos };
  });
}
