import { ApiError, notFound } from "@svc/contracts";
import type { WorkloadRow } from "../db/workload-store";

/** How users call a kind of workload (a service, a batch job): in messages, and the CLI command that handles it. */
export interface WorkloadWords {
  one: string;
  many: string;
  cli: string;
}

export const SERVICE_WORDS: WorkloadWords = { one: "service", many: "services", cli: "svc" };
export const BATCH_WORDS: WorkloadWords = { one: "batch job", many: "batch jobs", cli: "svc batch" };

/** "Service", "Batch job": the word that starts a message. */
export const capitalised = (words: WorkloadWords) => words.one[0].toUpperCase() + words.one.slice(1);

/** A list without `all` (svc ls, svc batch ls, the UI's pages) shows those that ended this recently, after the live ones. */
export const RECENTLY_ENDED_MS = 24 * 3600 * 1000;
export const recentlyEndedSince = (now = new Date()) => new Date(now.getTime() - RECENTLY_ENDED_MS);

interface Lookup<Row> {
  get(id: string): Row | undefined;
  byPrefix(prefix: string): Row[];
  /** Newest first. */
  named(name: string): Row[];
}

/** A workload by full id, unique id prefix, or name (the newest of that name); ambiguity lists the candidates. */
export function resolveWorkload<Row extends Pick<WorkloadRow, "id" | "name" | "status">>(store: Lookup<Row>, ref: string, words: WorkloadWords): Row {
  const exact = store.get(ref);
  if (exact) return exact;
  const byPrefix = /^[0-9a-f-]+$/i.test(ref) ? store.byPrefix(ref.toLowerCase()) : [];
  if (byPrefix.length === 1) return byPrefix[0];
  if (byPrefix.length > 1) {
    const list = byPrefix.map((row) => `${row.id} (${row.name}, ${row.status})`).join("; ");
    throw new ApiError(409, "ambiguous_id", `${ref} matches several ${words.many}: ${list}. Give more characters of the id.`);
  }
  const byName = store.named(ref);
  if (byName.length >= 1) return byName[0];
  throw notFound(`No ${words.one} has the id or name ${ref}. '${words.cli} ls --all' lists them.`);
}
