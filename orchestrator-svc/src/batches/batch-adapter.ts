import { ApiError, badRequest, type BatchRunRequest, type InferenceServer, type Model } from "@svc/contracts";

/** A batch job given a LoRA adapter as its model: the adapter's repo id and the base the job runs it on. */
export interface BatchAdapter {
  adapter: string;
  base: string;
}

/**
 * The adapter a batch request names instead of a model (every registered snapshot of the repo is an
 * adapter, the newest deciding), with its base; undefined for a model. The base must be named and in
 * the registry of the profile: else the job is refused before anything starts, saying what to add.
 * Whether the adapter fits the base and the server is chooseAdapters' check, as for `svc run --adapter`.
 */
export async function batchAdapterOf(rows: readonly Model[], profile: string, models: (repo: string) => Promise<Model[]>): Promise<BatchAdapter | undefined> {
  if (rows.length === 0 || !rows.every((row) => row.adapter)) return undefined;
  const newest = [...rows].sort((a, b) => b.seenAt.localeCompare(a.seenAt))[0];
  const { kind, base } = newest.adapter!;
  const field = { field: "model" };
  if (!base) {
    const family = newest.facts?.architecture ? ` (a ${newest.facts.architecture} model it fits)` : "";
    throw badRequest(
      `${newest.repo} is a LoRA adapter (${kind}) that names no base model, and a batch job runs an adapter on its base: serve it with 'svc run ${newest.image} BASE --adapter ${newest.repo}'${family} and send the requests to /v1.`,
      field,
    );
  }
  const baseRows = (await models(base)).filter((row) => !row.adapter);
  if (baseRows.length === 0) {
    throw new ApiError(
      404,
      "adapter_base_not_found",
      `${newest.repo} is a LoRA adapter (${kind}) of ${base}, which is not in the registry of profile ${profile}: a batch job runs the adapter on its base. Download it with 'svc model add ${base} --profile ${profile}', or run 'svc model ls --refresh' if it is on disk.`,
      field,
    );
  }
  return { adapter: newest.repo, base };
}

/** An adapter refusal of the launch planner (field `adapters`, worded for `--adapter NAME`) as the batch job's: the adapter was given as its model. */
export function asBatchAdapterRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || (error.details as { field?: string } | undefined)?.field !== "adapters") return error;
  return new ApiError(error.status, error.code, error.message.replace(/^--adapter /, ""), { field: "model" });
}

/** svc's CPU runtime embeds with the base model whatever adapter a request names: a folder embed job of an adapter would only repeat the base's. */
export function checkAdapterTask(task: BatchRunRequest["task"], server: InferenceServer, adapter: BatchAdapter): void {
  if (task === "embed" && server === "svc") {
    throw badRequest(`${adapter.adapter} is a LoRA adapter: svc's CPU runtime embeds with the base model, adapter or not. Run 'svc batch run embed ${adapter.base} …' instead.`, { field: "task" });
  }
}
