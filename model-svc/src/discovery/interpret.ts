import { isCommit, type AdapterFacts, type ModelFacts, type Task, type ScanIssue } from "@svc/contracts";
import { classify } from "./classify";
import { repoFromFolderName } from "./repo-folder";
import { missingFiles, type ScannedRoot, type SnapshotFacts } from "./types";

/** A complete, classified snapshot: what becomes a row of the registry. */
export interface FoundSnapshot {
  repo: string;
  revision: string;
  image: Task;
  modelDir: string;
  sizeBytes: number;
  /** Files the hub listed for this commit are missing (downloaded with --include/--exclude). */
  partial: boolean;
  /** What the scan read of the snapshot, for its model facts (facts/snapshot-facts.ts). */
  source?: SnapshotFacts;
  /** What its files say (absent: nothing); set by readSnapshotFacts. */
  facts?: ModelFacts;
  /** Set by readSnapshotFacts when the snapshot is a LoRA adapter. */
  adapter?: AdapterFacts;
  /** The key `facts` were read for; none when some of its files could not be read (they are read again next time). */
  factsKey?: string;
  /** The registry's facts for `factsKey` stand (the headers were not read again). */
  factsCached?: boolean;
}

export interface Interpretation {
  found: FoundSnapshot[];
  issues: ScanIssue[];
}

/**
 * Turns what a scan saw into registry rows and issues. Roots are taken in order (home before
 * cache): a snapshot present in both is registered once, from the first. Nothing is guessed:
 * empty, unreadable, incomplete or unclassifiable snapshots, refs naming a missing snapshot and
 * folders that are not `models--<owner>--<name>` are reported as issues.
 */
export function interpretScan(profile: string, roots: ScannedRoot[]): Interpretation {
  const found = new Map<string, FoundSnapshot>();
  const issues: ScanIssue[] = [];
  const issue = (path: string, reason: string, repo?: string, revision?: string) =>
    issues.push({ profile, path, reason, ...(repo ? { repo } : {}), ...(revision ? { revision } : {}) });

  for (const root of roots) {
    if (root.problem && root.problem !== "missing") issue(root.root, `cannot read the model folder: ${root.problem}`);
    for (const scanned of root.repos) {
      const parsed = repoFromFolderName(scanned.folder);
      if ("error" in parsed) {
        issue(scanned.path, parsed.error);
        continue;
      }
      const { repo } = parsed;
      if (scanned.problem) {
        issue(scanned.path, `cannot read the folder: ${scanned.problem}`, repo);
        continue;
      }
      const names = new Set(scanned.snapshots.map((s) => s.name));
      for (const [ref, commit] of Object.entries(scanned.refs)) {
        if (!names.has(commit)) issue(`${scanned.path}/refs/${ref}`, `refs/${ref} names ${commit || "nothing"}, which has no snapshot folder`, repo);
      }
      for (const snapshot of scanned.snapshots) {
        const revision = snapshot.name;
        if (!isCommit(revision)) {
          issue(snapshot.path, "the snapshot folder name is not a 40-character commit id", repo);
          continue;
        }
        if (snapshot.problem) {
          issue(snapshot.path, `cannot read the snapshot: ${snapshot.problem}`, repo, revision);
          continue;
        }
        if (scanned.partial.includes(revision)) {
          issue(snapshot.path, "its download has not finished (run `svc model add` again to resume it)", repo, revision);
          continue;
        }
        const files = snapshot.facts.files;
        if (files.length === 0) {
          issue(snapshot.path, "the snapshot folder is empty", repo, revision);
          continue;
        }
        const broken = files.filter((f) => f.broken);
        if (broken.length > 0) {
          issue(snapshot.path, `incomplete: ${broken.map((f) => f.path).slice(0, 3).join(", ")}${broken.length > 3 ? "…" : ""} point${broken.length === 1 ? "s" : ""} to missing files`, repo, revision);
          continue;
        }
        const key = `${repo}@${revision}`;
        if (found.has(key)) continue;
        const kind = classify(snapshot.facts);
        if (kind.image === null) {
          issue(snapshot.path, kind.reason, repo, revision);
          continue;
        }
        found.set(key, {
          repo,
          revision,
          image: kind.image,
          modelDir: snapshot.path,
          sizeBytes: files.reduce((sum, f) => sum + f.size, 0),
          partial: missingFiles(scanned.fileLists[revision] ?? [], snapshot.facts).length > 0,
          source: snapshot.facts,
        });
      }
    }
  }
  return { found: [...found.values()], issues };
}
