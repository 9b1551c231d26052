import { closest, didYouMean, ENGINE_VERSION_PATTERN, GPU_ENGINES, isGpuEngine, parseDuration, toTask, TASKS, type RunRequest, type Task } from "@svc/contracts";
import { UsageError } from "../../errors";
import { applyScalingOption, SCALING_OPTION_NAMES } from "../deployments/scaling-options";

type Kind = "text" | "flag" | "list" | { min: number };
interface OptionSpec {
  names: string[];
  kind: Kind;
  apply(request: RunRequest, value: string | number | boolean): void;
}

const job = (field: keyof NonNullable<RunRequest["job"]>) => (r: RunRequest, v: string | number | boolean) => {
  r.job = { ...r.job, [field]: v };
};
const text = (field: keyof NonNullable<RunRequest["textGeneration"]>) => (r: RunRequest, v: string | number | boolean) => {
  r.textGeneration = { ...r.textGeneration, [field]: v };
};

/** Job options (spec §4.1): Slurm's sbatch options; the Docker engine honours --mem and --gres. */
export const JOB_OPTIONS: OptionSpec[] = [
  { names: ["--time"], kind: "text", apply: job("time") },
  { names: ["--ntasks-per-node"], kind: { min: 1 }, apply: job("ntasksPerNode") },
  { names: ["--mem"], kind: { min: 1 }, apply: job("mem") },
  { names: ["--gres"], kind: { min: 0 }, apply: job("gres") },
  { names: ["--nodes"], kind: { min: 1 }, apply: job("nodes") },
  { names: ["--partition"], kind: "text", apply: job("partition") },
  { names: ["--constraint"], kind: "text", apply: job("constraint") },
  { names: ["--account"], kind: "text", apply: job("account") },
  { names: ["--qos"], kind: "text", apply: job("qos") },
  { names: ["--reservation"], kind: "text", apply: job("reservation") },
  { names: ["--exclude"], kind: "text", apply: job("exclude") },
  { names: ["--nodelist"], kind: "text", apply: job("nodelist") },
  { names: ["--profile", "-p"], kind: "text", apply: (r, v) => (r.profile = String(v)) },
];

const policy = (field: keyof NonNullable<RunRequest["policies"]>, option?: string) => (r: RunRequest, v: string | number | boolean) => {
  if (option && parseDuration(String(v)) === undefined) throw new UsageError(`${option} ${JSON.stringify(v)}: give a duration such as 30s, 30m, 2h, 1h30m or HH:MM:SS.`);
  r.policies = { ...r.policies, [field]: v };
};

/** Lifecycle policies: before the task name, or anywhere after it. */
export const POLICY_OPTIONS: OptionSpec[] = [
  { names: ["--idle-stop"], kind: "text", apply: policy("idleStop", "--idle-stop") },
  { names: ["--on-demand"], kind: "flag", apply: policy("onDemand") },
  { names: ["--start-timeout"], kind: "text", apply: policy("startTimeout", "--start-timeout") },
  { names: ["--renew"], kind: "flag", apply: policy("renew") },
  { names: ["--renew-before"], kind: "text", apply: policy("renewBefore", "--renew-before") },
];

/** Container options, for every task. */
export const CONTAINER_OPTIONS: OptionSpec[] = [
  { names: ["--name", "-n"], kind: "text", apply: (r, v) => (r.name = String(v)) },
  { names: ["--revision", "-r"], kind: "text", apply: (r, v) => (r.revision = String(v)) },
  { names: ["--dry-run"], kind: "flag", apply: (r, v) => (r.dryRun = Boolean(v)) },
  { names: ["--api-key"], kind: "text", apply: (r, v) => (r.apiKey = String(v)) },
  { names: ["--mount", "-m"], kind: "list", apply: (r, v) => (r.mounts = [...(r.mounts ?? []), String(v)]) },
  { names: ["--grace-period"], kind: { min: 0 }, apply: (r, v) => (r.gracePeriod = Number(v)) },
  { names: ["--image"], kind: "text", apply: (r, v) => (r.image = String(v)) },
];

/** `--replicas MIN..MAX` and its companions: the run becomes a deployment of replicas (RunRequest.scaling). */
export const SCALING_OPTIONS: OptionSpec[] = SCALING_OPTION_NAMES.map((name) => ({
  names: [name],
  kind: "text",
  apply: (r, v) => {
    const scaling = { ...r.scaling };
    applyScalingOption(scaling, name, String(v));
    r.scaling = scaling as RunRequest["scaling"];
  },
}));

export const TASK_OPTIONS: Record<Task, OptionSpec[]> = {
  "text-generation": [
    { names: ["--disable-custom-kernels"], kind: "flag", apply: text("disableCustomKernels") },
    { names: ["--sharded"], kind: "text", apply: text("sharded") },
    { names: ["--max-input-length"], kind: { min: 1 }, apply: text("maxInputLength") },
    { names: ["--max-total-tokens"], kind: { min: 1 }, apply: text("maxTotalTokens") },
    { names: ["--adapter"], kind: "list", apply: (r, v) => (r.adapters = [...(r.adapters ?? []), String(v)]) },
    {
      names: ["--engine"],
      kind: "text",
      apply: (r, v) => {
        const engine = String(v);
        if (!isGpuEngine(engine)) throw new UsageError(`--engine ${JSON.stringify(engine)}: use one of ${GPU_ENGINES.join(", ")}.${didYouMean(closest(engine, GPU_ENGINES))}`);
        r.engine = engine;
      },
    },
    {
      names: ["--engine-version"],
      kind: "text",
      apply: (r, v) => {
        const version = String(v);
        if (!new RegExp(ENGINE_VERSION_PATTERN).test(version)) throw new UsageError(`--engine-version ${JSON.stringify(version)}: give the engine's version, such as 0.11.1.`);
        r.engineVersion = version;
      },
    },
  ],
  "speech-recognition": [{ names: ["--input-dir"], kind: "text", apply: (r, v) => (r.speechRecognition = { inputDir: String(v) }) }],
};

const TASK_OF = new Map(TASKS.flatMap((task) => TASK_OPTIONS[task].map((spec) => [spec, task] as const)));
const EVERY_OPTION = [...JOB_OPTIONS, ...POLICY_OPTIONS, ...CONTAINER_OPTIONS, ...SCALING_OPTIONS, ...TASKS.flatMap((task) => TASK_OPTIONS[task])];

export type ParsedRun = { help: true; task?: Task } | { help: false; request: RunRequest; json: boolean };

function value(spec: OptionSpec, name: string, inline: string | undefined, next: () => string | undefined): string | number | boolean {
  if (spec.kind === "flag") {
    if (inline !== undefined) throw new UsageError(`${name} is a flag and takes no value.`);
    return true;
  }
  const raw = inline ?? next();
  if (raw === undefined || (inline === undefined && raw.startsWith("--"))) throw new UsageError(`${name} needs a value.`);
  if (spec.kind === "text" || spec.kind === "list") return raw;
  const number = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < spec.kind.min) {
    throw new UsageError(`${name} ${JSON.stringify(raw)}: use a whole number of at least ${spec.kind.min}.`);
  }
  return number;
}

/**
 * `svc run [options] <task> MODEL [options] [engine args…]`. One rule for every svc option (job,
 * container and task options alike): it may stand anywhere, before or after the task and the model.
 * Unrecognised arguments after a text-generation MODEL go to its engine as they are, each one
 * argument (`--` passes everything after it); anywhere else they are a usage error.
 */
export function parseRunArgs(args: string[]): ParsedRun {
  const request = { job: {} } as RunRequest;
  let task: Task | undefined;
  let model: string | undefined;
  let json = false;
  const engineArgs: string[] = [];
  const taskOptions: { name: string; task: Task }[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      if (task !== "text-generation" || !model) throw new UsageError("'--' passes the rest to the engine: give it after `text-generation MODEL`.");
      engineArgs.push(...args.slice(i + 1));
      break;
    }
    if (arg === "--help" || arg === "-h") return { help: true, task };
    if (arg === "--json") {
      json = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      if (!task) {
        task = toTask(arg);
        if (!task) throw new UsageError(`unknown task '${arg}'.${didYouMean(closest(arg, TASKS))} Choose ${TASKS.join(" or ")}.`);
      } else if (!model) model = arg;
      else if (task === "text-generation") engineArgs.push(arg);
      else throw new UsageError(`unexpected argument '${arg}' after the model.`);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const spec = EVERY_OPTION.find((option) => option.names.includes(name));
    if (spec) {
      const owner = TASK_OF.get(spec);
      if (owner) taskOptions.push({ name, task: owner });
      spec.apply(request, value(spec, name, inline, () => args[++i]));
    } else if (task === "text-generation" && model) {
      engineArgs.push(arg);
    } else {
      const hint = didYouMean(closest(name, [...EVERY_OPTION.flatMap((o) => o.names), "--json", "--help"].filter((n) => n.startsWith("--"))));
      throw new UsageError(
        task && model
          ? `unknown option ${name} for ${task}.${hint} Run 'svc run ${task} --help'.`
          : `unknown option ${name}.${hint} Run 'svc run ${task ? `${task} ` : ""}--help' for svc's options; engine arguments go after 'text-generation MODEL'.`,
      );
    }
  }
  if (!task) throw new UsageError(`missing the task: svc run ${TASKS.join("|")} MODEL.`);
  if (!model) throw new UsageError(`missing the model: svc run ${task} <owner/name>.`);
  const foreign = taskOptions.find((option) => option.task !== task);
  if (foreign) throw new UsageError(`${foreign.name} is a ${foreign.task} option; ${task} does not take it. Run 'svc run ${task} --help'.`);
  if (request.scaling && !request.scaling.replicas) {
    const given = Object.keys(request.scaling).map((field) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new UsageError(`${given.join(", ")} ${given.length === 1 ? "belongs" : "belong"} to a deployment: add --replicas MIN..MAX (e.g. --replicas 1..3).`);
  }
  if (Object.keys(request.job!).length === 0) delete request.job;
  return { help: false, json, request: { ...request, task, model, ...(engineArgs.length ? { engineArgs } : {}) } };
}
