import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import type { AdapterFacts, Model, ModelFacts } from "@svc/contracts";
import { formatBytes, formatDecimalBytes, formatParameterCount } from "@svc/contracts/format-bytes";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";

/** What the model list and `show` print for a fact the files do not give. */
export const UNKNOWN = "unknown";

const exact = (n: number) => n.toLocaleString("en-US");

/** A vision-language model's tower: `665M parameters, 1.33 GB (siglip_vision_model)`, what the files give of it. */
function visionTowerText(vision: NonNullable<ModelFacts["vision"]>): string {
  const size = [vision.parameters !== undefined ? `${formatParameterCount(vision.parameters)} parameters` : undefined, vision.weightBytes !== undefined ? formatDecimalBytes(vision.weightBytes) : undefined].filter(Boolean);
  const what = size.length > 0 ? size.join(", ") : "yes (its tensors were not found in the weight headers)";
  return vision.modelType ? `${what} (${vision.modelType})` : what;
}

/** The facts `svc model show` prints, in order: a label and how the fact is written (a field name: as it is). */
const FACT_LINES: Array<[string, keyof ModelFacts | ((facts: ModelFacts) => string | undefined)]> = [
  ["parameters", (f) => f.parameters !== undefined ? `${formatParameterCount(f.parameters)} (${exact(f.parameters)})` : undefined],
  ["weights", (f) => f.weightBytes !== undefined ? `${formatDecimalBytes(f.weightBytes)} (${exact(f.weightBytes)} bytes)` : undefined],
  ["dtype", "dtype"],
  ["weight_format", "weightFormat"],
  ["quantization", "quantization"],
  ["architecture", "architecture"],
  ["model_type", "modelType"],
  ["layers", "layers"],
  ["hidden_size", "hiddenSize"],
  ["intermediate", "intermediateSize"],
  ["heads", "attentionHeads"],
  ["kv_heads", "kvHeads"],
  ["head_dim", "headDim"],
  ["vocab", "vocabSize"],
  ["context", "contextLength"],
  ["sliding_window", "slidingWindow"],
  ["experts", "experts"],
  ["experts/token", "expertsPerToken"],
  ["kv_lora_rank", "kvLoraRank"],
  ["qk_rope_dim", "qkRopeHeadDim"],
  ["vision_tower", (f) => (f.vision ? visionTowerText(f.vision) : undefined)],
  ["read_from", (f) => f.files?.join(", ") || undefined],
];

const factText = (facts: ModelFacts, how: (typeof FACT_LINES)[number][1]) => (typeof how === "function" ? how(facts) : facts[how]?.toString());

/** What a LoRA adapter's files say, and how its base stands (the model facts that follow are the adapter file's own). */
function adapterLines(adapter: AdapterFacts, model: Model): Array<[string, string]> {
  const base = model.adapterBase;
  const modules = adapter.modules?.map((m) => `${m.name} ${m.inFeatures}→${m.outFeatures}${m.layers ? ` ×${m.layers}` : ""}`).join(", ");
  return [
    ["adapter", `LoRA, ${adapter.kind} (${adapter.file})`],
    ["base", adapter.base ?? (adapter.baseNamed ? `${adapter.baseNamed} (not a repo id)` : UNKNOWN)],
    ...(base ? [["base_state", `${base.state}: ${base.message}`] as [string, string]] : []),
    ["rank", adapter.rank?.toString() ?? UNKNOWN],
    ["alpha", adapter.alpha?.toString() ?? UNKNOWN],
    ["target_modules", adapter.targetModules?.join(", ") || UNKNOWN],
    ["modules", modules || UNKNOWN],
    ["layers_reached", adapter.layers?.toString() ?? UNKNOWN],
    ["task_type", adapter.taskType ?? UNKNOWN],
  ];
}

/**
 * A model and everything its files say, one `key: value` line each; `unknown` where they do not
 * say. An adapter: its adapter facts, then the facts of its own file that are known (an adapter has no layers or heads of its own).
 */
export function describeModel(model: Model): string {
  const facts = model.facts ?? {};
  const factRows = FACT_LINES.map(([key, how]): [string, string | undefined] => [key, factText(facts, how)]);
  const rows: Array<[string, string]> = [
    ["repo", model.repo],
    ["revision", model.revision],
    ["profile", model.profile],
    ["image", model.image],
    ["folder", model.modelDir],
    ["files", `${formatBytes(model.sizeBytes)}${model.partial ? " (partial: downloaded with --include/--exclude)" : ""}`],
    ...(model.adapter
      ? [...adapterLines(model.adapter, model), ...factRows.filter((row): row is [string, string] => row[1] !== undefined)]
      : factRows.map(([key, value]): [string, string] => [key, value ?? UNKNOWN])),
  ];
  return rows.map(([key, value]) => `${`${key}:`.padEnd(16)}${value}`).join("\n");
}

export interface ModelShowOptions {
  profile?: string;
  revision?: string;
  json?: boolean;
}

/** The one registered model `repo` (narrowed by profile and revision: a commit or its first characters). */
async function findModel(ctx: CliContext, repo: string, options: ModelShowOptions): Promise<Model> {
  if (options.profile !== undefined && (typeof options.profile !== "string" || options.profile === "")) throw new UsageError("--profile needs a profile name.");
  const revision = options.revision === undefined ? undefined : String(options.revision);
  if (revision !== undefined && !/^[0-9a-f]{4,40}$/.test(revision)) throw new UsageError(`--revision must be a commit id (or its first characters) as \`svc model ls\` shows it, not ${JSON.stringify(revision)}.`);
  const models = (await ctx.client().models.list({ repo, profile: options.profile })).filter((m) => !revision || m.revision.startsWith(revision));
  if (models.length === 0) {
    throw new ApiError(404, "not_found", `${repo}${revision ? ` at ${revision}` : ""} is not registered${options.profile ? ` for profile ${options.profile}` : ""}: \`svc model ls --refresh\` scans the model folders, \`svc model add ${repo}\` downloads it.`);
  }
  if (models.length > 1) {
    const which = models.map((m) => `  --profile ${m.profile} --revision ${m.revision.slice(0, 12)}`).join("\n");
    throw new UsageError(`${repo} is registered ${models.length} times; say which:\n${which}`);
  }
  return models[0];
}

export function registerModelShow(cli: CAC, ctx: CliContext) {
  cli
    .command("show <repo_id>", "Show a model and what its files say: parameters, weight size, dtype, layers, heads, context… (unknown where they do not say); an adapter: its base, rank, alpha and modules")
    .option("-p, --profile <profile>", "The model of this profile (when several profiles have it)")
    .option("-r, --revision <commit>", "The model at this commit, or its first characters (when several revisions are registered)")
    .option("--json", "Print JSON")
    .action(async (repo: string, options: ModelShowOptions) => {
      const model = await findModel(ctx, String(repo), options);
      ctx.emit(model, Boolean(options.json), () => describeModel(model));
    });
}
