import { isAbsolute, resolve } from "node:path";
import { BATCH_TASKS, type BatchRunRequest, type BatchTask, type RunRequest } from "@svc/contracts";
import { UsageError } from "../../errors";
import { JOB_OPTIONS } from "../run/parse-run-args";

type Apply = (request: BatchRunRequest, value: string) => void;

/** A path as given, or resolved against the working folder when relative (a `~/…` path is left to the cluster). */
const path = (value: string) => (isAbsolute(value) || value.startsWith("~") ? value : resolve(value));

const whole = (name: string, min: number) => (value: string) => {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min) throw new UsageError(`${name} ${JSON.stringify(value)}: use a whole number of at least ${min}.`);
  return number;
};

/** Seconds, or a number with s, m or h (`90`, `2m`, `1h`). */
function seconds(value: string): number {
  const match = /^(\d+)([smh]?)$/.exec(value.trim());
  if (!match) throw new UsageError(`--idle-timeout ${JSON.stringify(value)}: give seconds, or a number with s, m or h (e.g. 2m).`);
  return Number(match[1]) * { "": 1, s: 1, m: 60, h: 3600 }[match[2] as "" | "s" | "m" | "h"];
}

function params(value: string): BatchRunRequest["params"] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--params ${JSON.stringify(value)}: give a JSON object, e.g. '{"language":"en"}'.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError("--params: give a JSON object, e.g. '{\"language\":\"en\"}'.");
  return parsed as BatchRunRequest["params"];
}

const OPTIONS: Record<string, { flag?: boolean; apply: Apply }> = {
  "--input-dir": { apply: (r, v) => (r.inputDir = path(v)) },
  "--output-dir": { apply: (r, v) => (r.outputDir = path(v)) },
  "--input": { apply: (r, v) => (r.input = path(v)) },
  "--output": { apply: (r, v) => (r.output = path(v)) },
  "--name": { apply: (r, v) => (r.name = v) },
  "-n": { apply: (r, v) => (r.name = v) },
  "--revision": { apply: (r, v) => (r.revision = v) },
  "-r": { apply: (r, v) => (r.revision = v) },
  "--params": { apply: (r, v) => (r.params = params(v)) },
  "--input-ext": { apply: (r, v) => (r.inputExt = v.split(",").map((ext) => ext.trim()).filter(Boolean)) },
  "--concurrency": { apply: (r, v) => (r.concurrency = whole("--concurrency", 1)(v)) },
  "--idle-timeout": { apply: (r, v) => (r.idleTimeout = seconds(v)) },
  "--max-total-tokens": { apply: (r, v) => (r.textGeneration = { ...r.textGeneration, maxTotalTokens: whole("--max-total-tokens", 1)(v) }) },
  "--dry-run": { flag: true, apply: (r) => (r.dryRun = true) },
};

export type ParsedBatchRun = { help: true } | { help: false; request: BatchRunRequest; json: boolean };

/**
 * `svc batch run [job options] TASK MODEL --input-dir IN --output-dir OUT [options]`, or
 * `svc batch run [job options] [openai] MODEL --input requests.jsonl --output results.jsonl`.
 * Job options are `svc run`'s, with its rules.
 */
export function parseBatchRunArgs(args: string[]): ParsedBatchRun {
  const request = {} as BatchRunRequest;
  const positionals: string[] = [];
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--json") {
      json = true;
      continue;
    }
    if (!arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const next = () => {
      const value = inline ?? args[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new UsageError(`${name} needs a value.`);
      return value;
    };
    const own = OPTIONS[name];
    if (own) {
      if (own.flag) {
        if (inline !== undefined) throw new UsageError(`${name} is a flag and takes no value.`);
        own.apply(request, "");
      } else own.apply(request, next());
      continue;
    }
    const jobOption = JOB_OPTIONS.find((option) => option.names.includes(name));
    if (!jobOption) throw new UsageError(`unknown option ${name} for svc batch run. Run 'svc batch run --help'.`);
    const raw = next();
    let value: string | number = raw;
    if (typeof jobOption.kind === "object") value = whole(name, jobOption.kind.min)(raw);
    jobOption.apply(request as unknown as RunRequest, value);
  }
  let task: string | undefined;
  let model: string | undefined;
  if (positionals.length === 2) [task, model] = positionals;
  else if (positionals.length === 1 && request.input) [task, model] = ["openai", positionals[0]];
  else if (positionals.length > 2) throw new UsageError(`unexpected argument '${positionals[2]}' after the model.`);
  else throw new UsageError(`give the task and the model: svc batch run ${BATCH_TASKS.join("|")} MODEL --input-dir IN --output-dir OUT (openai: MODEL --input requests.jsonl --output results.jsonl).`);
  if (!(BATCH_TASKS as readonly string[]).includes(task)) throw new UsageError(`unknown batch task '${task}': choose ${BATCH_TASKS.join(", ")}.`);
  return { help: false, json, request: { ...request, task: task as BatchTask, model: model! } };
}

export const BATCH_RUN_HELP = `Usage: svc batch run [job options] TASK MODEL --input-dir IN --output-dir OUT [options]
       svc batch run [job options] [openai] MODEL --input requests.jsonl --output results.jsonl [options]

Runs MODEL over every input with the same runtime 'svc run' would start (a container, or a Slurm
job), with svc's batch driver beside it. Outputs are written whole (temporary name, then rename);
an input whose output exists is skipped, so a stopped, failed or resubmitted job goes on where it was.
MODEL may be a LoRA adapter (chat, openai; embed on vLLM): its base runs with it and every request
names the adapter; --revision then pins the base.

Tasks:
  transcribe   speech-recognition models: audio -> NAME.txt and NAME.json (segments)
  chat         text-generation models: each text file as the user message -> NAME.txt
  embed        text-generation models: each text file -> NAME.json (its embedding vector)
  openai       text-generation models: an OpenAI Batch API file (/v1/chat/completions,
               /v1/completions, /v1/embeddings) -> results in OpenAI's batch output format

Options:
  --input-dir IN, --output-dir OUT   folders (on the host that runs the job)
  --input FILE, --output FILE        task openai: requests and results (JSONL)
  --params JSON        transcribe: {"language":"en","format":"srt"} (json, text, srt, vtt), prompt, temperature
                       chat: {"prompt":"Summarise:\\n{text}","system":"…","max_tokens":200,"temperature":0}
  --input-ext LIST     extensions of the inputs (default transcribe .wav,.mp3,.flac,.ogg,.m4a,.webm; chat and embed .txt,.md)
  --concurrency N      requests in flight at once (default 4)
  --idle-timeout T     wait this long for new inputs once all are done (default 2m; 0 ends at once)
  --name, -n NAME      --revision, -r REV      --max-total-tokens N      --dry-run      --json

Job options (as for svc run): --time, --ntasks-per-node, --mem, --gres, --partition, --constraint, --profile/-p.
On Slurm a job that reaches its --time with inputs left is submitted again until done.`;
