import type { ScanIssue } from "@svc/contracts";
import type { FoundSnapshot } from "../discovery/interpret";
import { readModelFacts } from "./read";

/**
 * Reads the model facts (and an adapter's facts) of each found snapshot whose facts the registry does not already hold for
 * the same files, setting `facts` and `factsKey` on it. What cannot be read is returned as scan
 * issues: the model is still registered, with the facts the other files gave.
 */
export async function readSnapshotFacts(profile: string, found: FoundSnapshot[]): Promise<ScanIssue[]> {
  const issues: ScanIssue[] = [];
  for (const snapshot of found) {
    const source = snapshot.source;
    if (!source) continue;
    if (source.factsCached) {
      snapshot.factsCached = true;
      snapshot.factsKey = source.factsKey;
      continue;
    }
    const { facts, adapter, problems } = await readModelFacts(source);
    snapshot.facts = facts;
    snapshot.adapter = adapter;
    snapshot.factsKey = problems.length === 0 ? source.factsKey : undefined;
    for (const problem of problems) {
      issues.push({ profile, path: snapshot.modelDir, repo: snapshot.repo, revision: snapshot.revision, reason: `its model facts are incomplete: ${problem}`, registered: true });
    }
  }
  return issues;
}
