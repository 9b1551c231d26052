import { ApiError, badRequest, closestRepos, didYouMean, isRepoId, type Model, type Task } from "@svc/contracts";

export interface ModelChoice {
  model: Model;
  /** Registry rows of this repo on the profile (step 1 of `svc run`). */
  matched: number;
  warnings: string[];
}

const short = (revision: string) => revision.slice(0, 12);

/**
 * Steps 1–2 of `svc run`: the model must be available to the profile for this task; without a
 * revision the most recently registered local one is taken (the hub is never asked), with a warning.
 */
export function chooseModel(rows: Model[], repo: string, task: Task, profile: string, revision: string | undefined, registered: readonly string[] = []): ModelChoice {
  if (rows.length === 0) throw modelNotFound(repo, profile, registered);
  refuseAdapter(rows);
  const choice = chooseRevision(rows, repo, task, profile, revision);
  if (choice.model.adapter) throw adapterRefusal(choice.model);
  return choice;
}

function chooseRevision(rows: Model[], repo: string, task: Task, profile: string, revision: string | undefined): ModelChoice {
  const forTask = rows.filter((row) => row.image === task);
  if (forTask.length === 0) {
    throw badRequest(`${repo} is a ${rows[0].image} model, not ${task}: run it with 'svc run ${rows[0].image} ${repo}'.`);
  }
  const newestFirst = [...forTask].sort((a, b) => b.seenAt.localeCompare(a.seenAt));
  if (revision === undefined) {
    const model = newestFirst[0];
    const others = newestFirst.length > 1 ? ` (the most recent of ${newestFirst.length} local revisions)` : "";
    return {
      model,
      matched: rows.length,
      warnings: [`No --revision given: using ${model.revision}${others}. Pin it with --revision ${short(model.revision)}… for reproducible runs.`],
    };
  }
  const found = newestFirst.filter((row) => row.revision === revision || (revision.length >= 7 && row.revision.startsWith(revision)));
  if (found.length !== 1) {
    const available = newestFirst.map((row) => `${row.revision} (registered ${row.seenAt})`).join(", ");
    const problem = found.length === 0 ? `Revision ${revision} of ${repo} is not available to profile ${profile}` : `Revision ${revision} matches several revisions`;
    throw new ApiError(found.length === 0 ? 404 : 400, "revision_not_found", `${problem}. Available: ${available}.`);
  }
  return { model: found[0], matched: rows.length, warnings: [] };
}

/** Refuses a repo whose registered snapshots are all LoRA adapters (see adapterRefusal). */
function refuseAdapter(rows: Model[]): void {
  if (rows.length > 0 && rows.every((row) => row.adapter)) throw adapterRefusal(rows[0]);
}

/**
 * A LoRA adapter is served on a base model, never as a model: refused before anything starts, with
 * its base (and what the registry lacks of it) and the command that serves it on that base.
 */
export function adapterRefusal(model: Model): ApiError {
  const { kind, base } = model.adapter!;
  const command = `'svc run ${model.image} ${base ?? "BASE"} --adapter ${model.repo}'`;
  if (!base) {
    const family = model.facts?.architecture ? `${model.facts.architecture} ` : "";
    return new ApiError(400, "model_is_adapter", `${model.repo} is a LoRA adapter (${kind}), not a model, and names no base: serve it on a ${family}model it fits with ${command}.`);
  }
  const missing = model.adapterBase && model.adapterBase.state !== "registered" ? ` ${model.adapterBase.message}` : "";
  return new ApiError(400, "model_is_adapter", `${model.repo} is a LoRA adapter (${kind}) of ${base}, not a model: serve it on its base with ${command}.${missing}`);
}

/**
 * The model is not registered on the profile: a registered repo it likely means (a name without its
 * owner, a typo), and how to get it — `svc model add` only for a valid repo id.
 */
function modelNotFound(repo: string, profile: string, registered: readonly string[]): ApiError {
  const near = closestRepos(repo, [...new Set(registered)]);
  const download = isRepoId(repo)
    ? ` Download it with 'svc model add ${repo} --profile ${profile}', or if it is already on disk run 'svc model ls --refresh'.`
    : ` A model is named by its repo id, <owner>/<name>; 'svc model ls --profile ${profile}' lists the registered ones.`;
  return new ApiError(404, "model_not_found", `Model ${repo} is not available to profile ${profile}.${didYouMean(near)}${download}`);
}
