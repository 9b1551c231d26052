import { parseArgs } from "node:util";

export const DRIVER_TASKS = ["transcribe", "chat", "embed", "openai"] as const;
export type DriverTask = (typeof DRIVER_TASKS)[number];

export const DEFAULT_EXTENSIONS: Record<Exclude<DriverTask, "openai">, string[]> = {
  transcribe: [".wav", ".mp3", ".flac", ".ogg", ".m4a", ".webm"],
  chat: [".txt", ".md"],
  embed: [".txt", ".md"],
};

export interface DriverOptions {
  task: DriverTask;
  /** Folder tasks: the input and output folders. */
  inputDir?: string;
  outputDir?: string;
  /** OpenAI batch: the requests file and the results file. */
  input?: string;
  output?: string;
  /** Where failures, per-file status and temporary outputs are kept (inside the output folder by default). */
  stateDir: string;
  progressFile: string;
  concurrency: number;
  idleTimeoutMs: number;
  params: Record<string, unknown>;
  extensions: string[];
  retryFailed: boolean;
  /** The model every request names (a LoRA adapter the runtime serves beside its base); default: the one the runtime lists first. */
  model?: string;
  /** A runtime already serving (bench, tests) instead of starting `runtime`. */
  runtimeUrl?: string;
  runtimeKey?: string;
  /** The runtime's command; the driver adds `--host 127.0.0.1 --port P` and the key in `apiKeyVariable`. */
  runtime: string[];
  /** The environment variable the runtime reads its key from: SVC_API_KEY (svc's runtimes), VLLM_API_KEY (vLLM). */
  apiKeyVariable: string;
}

export class UsageError extends Error {
  override name = "UsageError";
}

/** The state folder of a job when none is given: `<output dir>/.svc-batch`, or `.<results file>.svc-batch` beside the results file. */
export function defaultStateDir(task: DriverTask, outputDir: string | undefined, output: string | undefined): string {
  if (task !== "openai") return `${outputDir!.replace(/\/+$/, "")}/.svc-batch`;
  const slash = output!.lastIndexOf("/");
  return `${output!.slice(0, slash + 1)}.${output!.slice(slash + 1)}.svc-batch`;
}

export function parseDriverArgs(argv: string[]): DriverOptions {
  const split = argv.indexOf("--");
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const runtime = split >= 0 ? argv.slice(split + 1) : [];
  const { values } = parseArgs({
    args: own,
    options: {
      task: { type: "string" },
      "input-dir": { type: "string" },
      "output-dir": { type: "string" },
      input: { type: "string" },
      output: { type: "string" },
      "state-dir": { type: "string" },
      "progress-file": { type: "string" },
      concurrency: { type: "string" },
      "idle-timeout": { type: "string" },
      params: { type: "string" },
      "input-ext": { type: "string" },
      "retry-failed": { type: "boolean" },
      model: { type: "string" },
      "runtime-url": { type: "string" },
      "api-key-variable": { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  const task = values.task as DriverTask;
  if (!DRIVER_TASKS.includes(task)) throw new UsageError(`--task: use one of ${DRIVER_TASKS.join(", ")}`);
  if (task === "openai") {
    if (!values.input || !values.output) throw new UsageError("--task openai needs --input requests.jsonl and --output results.jsonl");
  } else if (!values["input-dir"] || !values["output-dir"]) throw new UsageError(`--task ${task} needs --input-dir and --output-dir`);
  const number = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new UsageError(`--${name} ${JSON.stringify(text)}: give a number`);
    return value;
  };
  let params: Record<string, unknown> = {};
  if (values.params) {
    try {
      params = JSON.parse(values.params);
    } catch {
      throw new UsageError("--params: give a JSON object");
    }
    if (typeof params !== "object" || params === null || Array.isArray(params)) throw new UsageError("--params: give a JSON object");
  }
  const stateDir = values["state-dir"] ?? defaultStateDir(task, values["output-dir"], values.output);
  if (!values["runtime-url"] && runtime.length === 0) throw new UsageError("give the runtime's command after --, or --runtime-url");
  const apiKeyVariable = values["api-key-variable"] ?? "SVC_API_KEY";
  if (!/^[A-Z_][A-Z0-9_]*$/.test(apiKeyVariable)) throw new UsageError(`--api-key-variable ${JSON.stringify(apiKeyVariable)}: give an environment variable's name`);
  return {
    task,
    inputDir: values["input-dir"],
    outputDir: values["output-dir"],
    input: values.input,
    output: values.output,
    stateDir,
    progressFile: values["progress-file"] ?? `${stateDir}/progress.json`,
    concurrency: Math.max(1, Math.floor(number("concurrency", values.concurrency, 4))),
    idleTimeoutMs: number("idle-timeout", values["idle-timeout"], 120) * 1000,
    params,
    extensions: (values["input-ext"]?.split(",") ?? (task === "openai" ? [] : DEFAULT_EXTENSIONS[task])).map((ext) => (ext.startsWith(".") ? ext : `.${ext}`).toLowerCase()),
    retryFailed: values["retry-failed"] ?? false,
    ...(values.model ? { model: values.model } : {}),
    runtimeUrl: values["runtime-url"],
    runtimeKey: process.env.SVC_BATCH_RUNTIME_KEY,
    runtime,
    apiKeyVariable,
  };
}
