import { currentUserName } from "@svc/platform/process";
import type { CAC, Command } from "cac";
import { closest, didYouMean, GPU_ENGINES, isGpuEngine, isSlurmRuntime, parseDuration, parseGpuMemorySetting, SLURM_RUNTIMES, type Profile, type ProfileChange, type SlurmRuntime, PROFILE_JOB_DEFAULTS } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { PromptingContext, Prompter } from "../../prompt";

export type ProfileCliContext = CliContext & PromptingContext;

export const SCHEMAS = ["local", "slurm"] as const;
export type SchemaName = (typeof SCHEMAS)[number];

/** Options shared by `svc init`, `svc profile add` and `svc profile update`. */
export interface AttributeOptions {
  schema?: string;
  homeDir?: string;
  cacheDir?: string;
  host?: string;
  user?: string | number;
  home?: string;
  cache?: string;
  port?: string | number;
  identityFile?: string;
  runtime?: string;
  idleStop?: string;
  engine?: string;
  gpuMemory?: string | number;
  account?: string | number;
  partition?: string | number;
  qos?: string | number;
  hostKeyFingerprint?: string;
  yes?: boolean;
  json?: boolean;
}

export function attributeOptions(command: Command): Command {
  return command
    .option("--home-dir <path>", "local: folder for model and image files (created when missing)")
    .option("--cache-dir <path>", "local: existing shared folder to read model and image files from")
    .option("--host <host>", "slurm: SSH host or ~/.ssh/config alias; localhost when svc runs on the cluster")
    .option("--user <name>", "slurm: user name on the server")
    .option("--home <path>", "slurm: folder on the server for models, images and job data (created)")
    .option("--cache <path>", "slurm: existing shared folder on the server")
    .option("--port <port>", "slurm: SSH port (default: ~/.ssh/config, else 22)")
    .option("--identity-file <path>", "slurm: private key to log in with (default: ~/.ssh/config, ~/.ssh/id_*, ssh-agent)")
    .option("--runtime <bare|apptainer>", "slurm: how jobs start the server: bare (the svc runtime, which svc installs in <home>/runtime; default) or apptainer (an image svc pulls or builds on the cluster)")
    .option("--idle-stop <duration>", "Default --idle-stop of the profile's services (e.g. 30m): one that answered no request for that long is stopped")
    .option("--engine <vllm|sglang>", "The GPU text-generation engine of the profile's services when 'svc run' gives no --engine (default vllm; '' removes it)")
    .option("--gpu-memory <size>", "Memory of one GPU where svc's GPU table does not know the type or gives the wrong variant: 80G, or per type a100:80G,mi50:32G ('' removes it)")
    .option("--account <name>", "slurm: the Slurm account of this profile's jobs unless 'svc run --account' says otherwise ('' removes it)")
    .option("--partition <name>", "slurm: the default partition of its jobs ('' removes it)")
    .option("--qos <name>", "slurm: the default quality of service of its jobs ('' removes it)")
    .option("--host-key-fingerprint <SHA256:…>", "slurm: the fingerprint of the host's key, checked beforehand, for a host not in known_hosts yet (otherwise svc shows it and asks)")
    .option("--yes", "Do not ask: take the defaults for what the options leave out (and accept a new host's key)")
    .option("--json", "Print JSON");
}

interface Field {
  key: "home_dir" | "cache_dir" | "host" | "user" | "home" | "cache";
  option: keyof AttributeOptions;
  flag: string;
  question: string;
}

export const FIELDS: Record<SchemaName, Field[]> = {
  local: [
    { key: "home_dir", option: "homeDir", flag: "--home-dir", question: "Home folder (model and image files; created when missing)" },
    { key: "cache_dir", option: "cacheDir", flag: "--cache-dir", question: "Cache folder (existing, shared, read-only is fine)" },
  ],
  slurm: [
    { key: "host", option: "host", flag: "--host", question: "Slurm host (SSH host or ~/.ssh/config alias; localhost if this is the cluster)" },
    { key: "user", option: "user", flag: "--user", question: "User name on that host" },
    { key: "home", option: "home", flag: "--home", question: "Home folder on the host (created when missing)" },
    { key: "cache", option: "cache", flag: "--cache", question: "Cache folder on the host (must exist)" },
  ],
};

const text = (value: unknown) => (value === undefined || value === null || value === "" || value === true ? undefined : String(value));

export function parseSchema(raw: unknown): SchemaName | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  const schema = SCHEMAS.find((s) => s === value.toLowerCase());
  if (!schema) throw new UsageError(`--schema ${value} is not a schema: use local or slurm.`);
  return schema;
}

/** The slurm-only options of `profile add|update`, as their flags spell them. */
export const SLURM_EXTRA_FLAGS = ["--port", "--identity-file", "--runtime", "--account", "--partition", "--qos"];

/** The optional slurm attributes given as options (--port, --identity-file, --runtime, job defaults), checked. */
export function slurmExtras(
  schema: SchemaName,
  options: AttributeOptions,
): { port?: number; identity_file?: string; runtime?: SlurmRuntime } & Partial<Record<(typeof PROFILE_JOB_DEFAULTS)[number], string>> {
  const port = parsePort(options.port);
  const identity = options.identityFile === undefined ? undefined : String(options.identityFile);
  const runtime = options.runtime === undefined ? undefined : String(options.runtime);
  if (runtime !== undefined && !isSlurmRuntime(runtime)) throw new UsageError(`--runtime ${runtime}: use ${SLURM_RUNTIMES.join(" or ")}.`);
  // An empty value is kept: it removes the default on update.
  const defaults = Object.fromEntries(PROFILE_JOB_DEFAULTS.filter((key) => options[key] !== undefined && (options[key] as unknown) !== true).map((key) => [key, String(options[key])]));
  if (schema === "local" && (port !== undefined || identity !== undefined || runtime !== undefined || Object.keys(defaults).length > 0)) {
    throw new UsageError(`${SLURM_EXTRA_FLAGS.join(", ")} are for slurm profiles.`);
  }
  return { ...(port !== undefined ? { port } : {}), ...(identity ? { identity_file: identity } : {}), ...(runtime ? { runtime } : {}), ...defaults };
}

/** The options every schema has, as profile attributes (idle_stop, engine, gpu_memory), checked; an empty --engine or --gpu-memory removes it. */
export function commonAttributes(options: AttributeOptions): { idle_stop?: string; engine?: string; gpu_memory?: string } {
  const attributes: { idle_stop?: string; engine?: string; gpu_memory?: string } = {};
  const idle = text(options.idleStop);
  if (idle !== undefined) {
    if (parseDuration(idle) === undefined) throw new UsageError(`--idle-stop ${JSON.stringify(idle)}: give a duration such as 30m, 2h, 1h30m or HH:MM:SS.`);
    attributes.idle_stop = idle;
  }
  const engine = options.engine === undefined ? undefined : String(options.engine).trim();
  if (engine && !isGpuEngine(engine)) throw new UsageError(`--engine ${JSON.stringify(engine)}: use one of ${GPU_ENGINES.join(", ")}.${didYouMean(closest(engine, GPU_ENGINES))}`);
  if (engine !== undefined) attributes.engine = engine;
  if (options.gpuMemory === "") attributes.gpu_memory = "";
  const gpuMemory = text(options.gpuMemory);
  if (gpuMemory !== undefined) {
    const problem = parseGpuMemorySetting(gpuMemory);
    if (typeof problem === "string") throw new UsageError(`--gpu-memory: ${problem}.`);
    attributes.gpu_memory = gpuMemory;
  }
  return attributes;
}

export function parsePort(raw: unknown): number | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) throw new UsageError(`--port ${value} is not a port: use a whole number from 1 to 65535.`);
  return port;
}

/** Defaults offered for a new profile. */
export function newProfileDefaults(ctx: CliContext): Record<string, string> {
  return { home_dir: ctx.settings().homeDir, host: "", user: currentUserName(ctx.env), home: "~/.svc" };
}

/**
 * The attribute values for `schema`: from the options, else asked (with `defaults`), else — with
 * --yes or without a terminal — the defaults; a value that is still missing is a usage error.
 */
export async function collectAttributes(
  schema: SchemaName,
  options: AttributeOptions,
  defaults: Record<string, string | undefined>,
  prompter: Prompter,
  mode: "create" | "update",
): Promise<{ values: Record<string, string>; asked: boolean }> {
  const values: Record<string, string> = {};
  let asked = false;
  const foreign = FIELDS[schema === "local" ? "slurm" : "local"].filter((f) => text(options[f.option]) !== undefined);
  if (foreign.length > 0) {
    throw new UsageError(`${foreign.map((f) => f.flag).join(", ")} ${foreign.length > 1 ? "are" : "is"} for ${schema === "local" ? "slurm" : "local"} profiles; a ${schema} profile takes ${FIELDS[schema].map((f) => f.flag).join(", ")}.`);
  }
  for (const field of FIELDS[schema]) {
    const given = text(options[field.option]);
    // The cache folder defaults to the home folder just chosen (for a new profile).
    const fallback = defaults[field.key] || (mode === "create" && (field.key === "cache_dir" || field.key === "cache") ? values[field.key === "cache_dir" ? "home_dir" : "home"] : undefined);
    if (given !== undefined) values[field.key] = given;
    else if (!options.yes && prompter.interactive) {
      values[field.key] = await prompter.text(field.question, { flag: field.flag, default: fallback });
      asked = true;
    } else if (fallback) values[field.key] = fallback;
    else if (mode === "create") {
      throw new UsageError(`${field.flag} is required for a ${schema} profile${prompter.interactive ? "" : " (there is no terminal to ask in)"}.`);
    }
  }
  return { values, asked };
}

export function describeProfile(profile: Profile): string {
  const attributes: Array<[string, string | number | undefined]> =
    profile.schema === "local"
      ? [["home_dir", profile.home_dir], ["cache_dir", profile.cache_dir]]
      : [["host", profile.host], ["user", profile.user], ["home", profile.home], ["cache", profile.cache], ["port", profile.port], ["identity_file", profile.identity_file], ["runtime", profile.runtime ?? "bare"], ["account", profile.account], ["partition", profile.partition], ["qos", profile.qos]];
  const rows: Array<[string, string | number | undefined]> = [["name", profile.name], ["schema", profile.schema], ...attributes, ["idle_stop", profile.idle_stop], ["engine", profile.engine], ["gpu_memory", profile.gpu_memory]];
  return rows
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${`${key}:`.padEnd(15)}${value}`)
    .join("\n");
}

/** Prints the result of a create or update: what the checks did, then the profile. */
export function reportChange(ctx: CliContext, change: ProfileChange, verb: string, json: boolean): void {
  if (json) return ctx.io.out(JSON.stringify(change, null, 2));
  for (const notice of change.notices) ctx.io.err(notice);
  ctx.io.out(`${verb} profile ${change.profile.name} (${change.profile.schema}).\n${describeProfile(change.profile)}`);
}

export type RegisterProfileCommand = (cli: CAC, ctx: ProfileCliContext) => void;
