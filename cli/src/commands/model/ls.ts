import type { CAC } from "cac";
import { MODEL_KINDS, toTask, TASKS, type Model, type ModelKind, type RefreshReport } from "@svc/contracts";
import { ApiError } from "@svc/client";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { formatDecimalBytes, formatParameterCount } from "@svc/contracts/format-bytes";
import { UNKNOWN } from "./show";

/** An adapter's BASE cell: its base's repo, marked when the registry lacks it or it does not fit; `-` for a model. */
function baseCell(model: Model): string {
  if (!model.adapter) return "-";
  const base = model.adapter.base ?? UNKNOWN;
  const state = model.adapterBase?.state;
  return state === "not_registered" ? `${base} (not registered)` : state === "does_not_fit" ? `${base} (does not fit)` : base;
}

/** The IMAGE cell: the task, marked `(vision)` for a vision-language model (config.json's vision_config): it serves text-generation and takes images on vLLM and SGLang. */
export const imageCell = (model: Model) => (model.facts?.vision ? `${model.image} (vision)` : model.image);

/**
 * The spec's columns, then BASE when some row is a LoRA adapter (its base model; `-` for a model),
 * PARAMS and WEIGHTS (what the safetensors headers or GGUF tensor infos say — an adapter's own;
 * `unknown` where the files do not say) and FILES: `partial` for a snapshot downloaded with
 * --include/--exclude, else `all`.
 */
export function modelTable(models: Model[]): string {
  const adapters = models.some((m) => m.adapter);
  return formatTable(
    ["repo", "revision", "profile", "image", ...(adapters ? ["base"] : []), "params", "weights", "files"],
    models.map((m) => [
      m.repo,
      m.revision,
      m.profile,
      imageCell(m),
      ...(adapters ? [baseCell(m)] : []),
      m.facts?.parameters !== undefined ? formatParameterCount(m.facts.parameters) : UNKNOWN,
      m.facts?.weightBytes !== undefined ? formatDecimalBytes(m.facts.weightBytes) : UNKNOWN,
      m.partial ? "partial" : "all",
    ]),
  );
}

/** One line per adapter whose base is not there to serve it on: what is missing. */
export function adapterBaseNotes(models: Model[]): string[] {
  return models.filter((m) => m.adapterBase && m.adapterBase.state !== "registered").map((m) => `${m.repo} (${m.profile}): ${m.adapterBase!.message}`);
}

/** Said when there is no profile to refresh yet (models belong to a profile's folders). */
export const NO_PROFILE_YET = "No profiles yet, so there are no model folders to scan: create the default profile with `svc init`, then put models in its home_dir/models or run `svc model add <owner>/<name>`.";

function describeRefresh(report: RefreshReport): string[] {
  if (report.profiles.length === 0 && report.removedForMissingProfiles === 0) return [NO_PROFILE_YET];
  const lines = report.profiles.map((p) =>
    p.status === "ok"
      ? `Refreshed ${p.profile}: ${p.added} added, ${p.removed} removed, ${p.updated} updated, ${p.unchanged} unchanged (${(p.durationMs / 1000).toFixed(2)} s${p.sshRoundTrips ? `, ${p.sshRoundTrips} SSH command` : ""}).`
      : `Could not scan ${p.profile}: ${p.error} Its models were left as they were.`,
  );
  if (report.removedForMissingProfiles > 0) lines.push(`Removed ${report.removedForMissingProfiles} model(s) of profiles that no longer exist.`);
  for (const issue of report.issues) lines.push(`  ${issue.registered ? "registered" : "not registered"} (${issue.profile}): ${issue.path}: ${issue.reason}`);
  return lines;
}

export interface ModelLsOptions {
  refresh?: boolean;
  profile?: string;
  image?: string;
  kind?: string;
  json?: boolean;
}

/** `svc model ls`: the models (after a scan with --refresh) as a table (or JSON). */
export async function listModels(ctx: CliContext, options: ModelLsOptions): Promise<void> {
  const image = options.image === undefined ? undefined : toTask(String(options.image));
  if (options.image !== undefined && !image) throw new UsageError(`--image must be ${TASKS.join(" or ")}, not ${JSON.stringify(String(options.image))}.`);
  if (options.profile !== undefined && (typeof options.profile !== "string" || options.profile === "")) throw new UsageError("--profile needs a profile name.");
  const kind = options.kind === undefined ? undefined : String(options.kind);
  if (kind !== undefined && !(MODEL_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be ${MODEL_KINDS.join(" or ")}, not ${JSON.stringify(kind)}.`);
  const client = ctx.client();
  let failed: string[] = [];
  if (options.refresh) {
    const report = await client.models.refresh(options.profile).catch(async (error) => {
      // The default profile asked for by name, before `svc init` made any.
      if (error instanceof ApiError && error.status === 404 && (await client.profiles.list()).length === 0) throw new ApiError(404, "not_found", `${error.message} ${NO_PROFILE_YET}`);
      throw error;
    });
    for (const line of describeRefresh(report)) ctx.io.err(line);
    failed = report.profiles.filter((p) => p.status === "failed").map((p) => p.profile);
  }
  const models = await client.models.list({ profile: options.profile, image, kind: kind as ModelKind | undefined });
  ctx.emit(models, Boolean(options.json), () => modelTable(models));
  if (!options.json) for (const note of adapterBaseNotes(models)) ctx.io.err(note);
  if (models.length === 0 && !options.json && !options.refresh) ctx.io.err("No models registered. `svc model ls --refresh` scans the profiles' model folders; `svc model add <repo_id>` downloads one.");
  if (failed.length > 0) throw new ApiError(502, "scan_failed", `could not scan profile${failed.length > 1 ? "s" : ""} ${failed.join(", ")} (see above).`);
}

export function registerModelLs(cli: CAC, ctx: CliContext) {
  cli
    .command(
      "ls",
      "List models: REPO, REVISION, PROFILE, IMAGE (text-generation (vision) for a vision-language model), BASE (for LoRA adapters: the model they are served on), PARAMS, WEIGHTS (from the weight files' headers; unknown where they do not say), FILES (partial: downloaded with --include/--exclude)",
    )
    .alias("list")
    .option("--refresh", "Scan the profiles' model folders first and update the model database")
    .option("-p, --profile <profile>", "Only this profile's models (and only its folders with --refresh)")
    .option("--image <image>", `Only models of this kind: ${TASKS.join(" or ")}`)
    .option("--kind <kind>", "Only models (model) or only LoRA adapters (adapter)")
    .option("--json", "Print JSON")
    .action((options: ModelLsOptions) => listModels(ctx, options));
}
