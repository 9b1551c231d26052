/**
 * The llama.cpp server options the project's CPU text-generation runtime accepts as engine
 * arguments (`svc run text-generation MODEL --ctx-size 512 …`). Defined once: the orchestrator
 * refuses any other option at `svc run` with this list, the runtime parses its command line with
 * it, and `svc run --help` prints it. vLLM's arguments are not checked here.
 */
export type EngineOptionValue =
  | { type: "integer"; min: number; max?: number; /** Words accepted besides numbers, e.g. `auto`. */ words?: string[] }
  | { type: "choice"; choices: string[] }
  | { type: "flag" };

export interface EngineOption {
  /** The long name, as llama.cpp's server spells it. */
  name: string;
  /** Other spellings llama.cpp's server accepts (`-c`, `-np`, …). */
  aliases: string[];
  value: EngineOptionValue;
  description: string;
}

export const CPU_TEXT_GENERATION_OPTIONS: readonly EngineOption[] = [
  {
    name: "--ctx-size",
    aliases: ["-c"],
    value: { type: "integer", min: 0 },
    description: "Tokens of context each request can use (0: what the model was trained with; default 4096 or --max-total-tokens).",
  },
  { name: "--threads", aliases: ["-t"], value: { type: "integer", min: 1, max: 1024 }, description: "CPU threads per evaluation (default: 1 for models under 256 MB, else all cores)." },
  { name: "--batch-size", aliases: ["-b"], value: { type: "integer", min: 1 }, description: "Prompt tokens evaluated per batch (default 512, or the context size when smaller)." },
  { name: "--parallel", aliases: ["-np"], value: { type: "integer", min: 1, max: 64 }, description: "Requests generated at the same time, each in its own sequence of --ctx-size tokens (default 1)." },
  { name: "--seed", aliases: ["-s"], value: { type: "integer", min: 0, max: 4294967295 }, description: "Sampling seed for requests that give none (default: random)." },
  { name: "--flash-attn", aliases: ["-fa"], value: { type: "choice", choices: ["on", "off", "auto"] }, description: "Flash attention (default auto)." },
  { name: "--mlock", aliases: [], value: { type: "flag" }, description: "Keep the model in RAM (no swapping)." },
  { name: "--no-mmap", aliases: [], value: { type: "flag" }, description: "Read the model into memory instead of mapping the file." },
  {
    name: "--n-gpu-layers",
    aliases: ["-ngl", "--gpu-layers"],
    value: { type: "integer", min: 0, words: ["auto", "all"] },
    description: "Ignored, with a notice: the CPU runtime keeps every layer on the CPU.",
  },
];

/** Options accepted but without effect on the CPU runtime: each gets a notice when given. */
export const IGNORED_ON_CPU = ["--n-gpu-layers"] as const;

export type EngineOptionValues = Record<string, number | string | true>;

export interface ParsedEngineArgs {
  /** By long name: a number, a choice (or word), or true for a flag. */
  values: EngineOptionValues;
  /** Arguments that are no option of the table, as given (a value after one included). */
  unknown: string[];
  /** What is wrong with the table's options that were given. */
  problems: string[];
}

export const findEngineOption = (table: readonly EngineOption[], name: string) =>
  table.find((option) => option.name === name || option.aliases.includes(name));

function readValue(option: EngineOption, name: string, raw: string | undefined): { value?: number | string | true; problem?: string } {
  const spec = option.value;
  if (spec.type === "flag") return raw === undefined ? { value: true } : { problem: `${name} is a flag and takes no value.` };
  if (raw === undefined) return { problem: `${name} needs a value.` };
  if (spec.type === "choice") {
    return spec.choices.includes(raw) ? { value: raw } : { problem: `${name} ${JSON.stringify(raw)}: use one of ${spec.choices.join(", ")}.` };
  }
  if (spec.words?.includes(raw)) return { value: raw };
  const number = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < spec.min || (spec.max !== undefined && number > spec.max)) {
    const range = spec.max === undefined ? `of at least ${spec.min}` : `from ${spec.min} to ${spec.max}`;
    const words = spec.words ? ` (or ${spec.words.join(", ")})` : "";
    return { problem: `${name} ${JSON.stringify(raw)}: use a whole number ${range}${words}.` };
  }
  return { value: number };
}

/**
 * Reads `args` against `table`: `--name value`, `--name=value`, and the aliases. Anything else is
 * returned in `unknown` (a value-looking argument right after an unknown option goes with it).
 */
export function parseEngineArgs(args: readonly string[], table: readonly EngineOption[]): ParsedEngineArgs {
  const parsed: ParsedEngineArgs = { values: {}, unknown: [], problems: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith("-") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const option = findEngineOption(table, name);
    if (!option) {
      parsed.unknown.push(arg);
      if (arg.startsWith("-") && eq < 0 && args[i + 1] !== undefined && !args[i + 1].startsWith("-")) parsed.unknown.push(args[++i]);
      continue;
    }
    let raw: string | undefined;
    if (eq > 0) raw = arg.slice(eq + 1);
    else if (option.value.type !== "flag" && args[i + 1] !== undefined && !/^--?[a-z]/i.test(args[i + 1])) raw = args[++i];
    const { value, problem } = readValue(option, name, raw);
    if (problem) parsed.problems.push(problem);
    else parsed.values[option.name] = value!;
  }
  return parsed;
}

/** The accepted options, one per line, as `svc run --help` and the refusal of an unknown one show them. */
export function describeEngineOptions(table: readonly EngineOption[]): string[] {
  const valueText = (value: EngineOptionValue) =>
    value.type === "flag" ? "" : value.type === "choice" ? ` ${value.choices.join("|")}` : value.words ? ` N|${value.words.join("|")}` : " N";
  return table.map((option) => `${[option.name, ...option.aliases].join(", ")}${valueText(option.value)}  ${option.description}`);
}
