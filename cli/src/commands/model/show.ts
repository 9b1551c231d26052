import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import type { Model, ModelFacts } from "@svc/contracts";
import { formatBytes, formatDecimalBytes, formatParameterCount } from "@svc/contracts/format-bytes";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";

/** What the model list and `show` print for a fact the files do not give. */
export const UNKNOWN = "unknown";

const exact = (n: number) => n.toLocaleString("en-US");

/** The facts `svc model show` prints, in order, each with how it is written. */
const FACT_LINES: Array<[string, (facts: ModelFacts) => string | undefined]> = [
  ["parameters", (f) => f.parameters !== undefined ? `${formatParameterCount(f.parameters)} (${exact(f.parameters)})` : undefined],
  ["weights", (f) => f.weightBytes !== undefined ? `${formatDecimalBytes(f.weightBytes)} (${exact(f.weightBytes)} bytes)` : undefined],
  ["dtype", (f) => f.dtype],
  ["quantization", (f) => f.quantization],
  ["architecture", (f) => f.architecture],
  ["model_type", (f) => f.modelType],
  ["layers", (f) => f.layers?.toString()],
  ["hidden_size", (f) => f.hiddenSize?.toString()],
  ["intermediate", (f) => f.intermediateSize?.toString()],
  ["heads", (f) => f.attentionHeads?.toString()],
  ["kv_heads", (f) => f.kvHeads?.toString()],
  ["head_dim", (f) => f.headDim?.toString()],
  ["vocab", (f) => f.vocabSize?.toString()],
  ["context", (f) => f.contextLength?.toString()],
  ["sliding_window", (f) => f.slidingWindow?.toString()],
  ["experts", (f) => f.experts?.toString()],
  ["experts/token", (f) => f.expertsPerToken?.toString()],
  ["kv_lora_rank", (f) => f.kvLoraRank?.toString()],
  ["qk_rope_dim", (f) => f.qkRopeHeadDim?.toString()],
  ["read_from", (f) => f.files?.join(", ") || undefined],
];

/** A model and everything its files say, one `key: value` line each; `unknown` where they do not say. */
export function describeModel(model: Model): string {
  const facts = model.facts ?? {};
  const rows: Array<[string, string]> = [
    ["repo", model.repo],
    ["revision", model.revision],
    ["profile", model.profile],
    ["image", model.image],
    ["folder", model.modelDir],
    ["files", `${formatBytes(model.sizeBytes)}${model.partial ? " (partial: downloaded with --include/--exclude)" : ""}`],
    ...FACT_LINES.map(([key, text]): [string, string] => [key, text(facts) ?? UNKNOWN]),
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
    .command("show <repo_id>", "Show a model and what its files say: parameters, weight size, dtype, layers, heads, context… (unknown where they do not say)")
    .option("-p, --profile <profile>", "The model of this profile (when several profiles have it)")
    .option("-r, --revision <commit>", "The model at this commit, or its first characters (when several revisions are registered)")
    .option("--json", "Print JSON")
    .action(async (repo: string, options: ModelShowOptions) => {
      const model = await findModel(ctx, String(repo), options);
      ctx.emit(model, Boolean(options.json), () => describeModel(model));
    });
}
