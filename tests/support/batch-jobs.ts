import type { SvcClient } from "@svc/client";
import type { BatchRecord, BatchStatus } from "@svc/contracts";
import { eventually, runSvc } from "./svc-app";

/** Waits until batch job `id` is `wanted`, as GET /api/batches/{ref} tells it. */
export const batchReaches = (client: SvcClient, id: string, wanted: BatchStatus, ms: number) =>
  eventually(async () => (await client.batches.get(id)).status === wanted, ms, `batch ${id} to be ${wanted}`);

/** How often the progress is read: each read is a CLI process, which a tighter loop would run on one of the two cores all along. */
const PROGRESS_EVERY_MS = 250;

/** Polls `svc batch ls --json` (run with `env`) until `until` holds, collecting the done counts it showed for job `id`. */
export async function watchBatchProgress(env: Record<string, string | undefined>, id: string, until: (record: BatchRecord) => boolean, seen: Set<number>, ms: number) {
  await eventually(async () => {
    const ls = await runSvc(["batch", "ls", "--all", "--json"], env);
    const record = (JSON.parse(ls.stdout) as BatchRecord[]).find((b) => b.id === id);
    if (record?.progress) seen.add(record.progress.done);
    return record !== undefined && until(record);
  }, ms, `batch ${id} progress`, PROGRESS_EVERY_MS);
}
