import { parseArgs } from "node:util";
import { readApiKey } from "./api-key";
import { parseEngineArgs, type EngineOption, type EngineOptionValues } from "@svc/contracts/engine-options";

/** Engine-style command-line options shared by the runtimes. */
export interface RuntimeArgs {
  model: string;
  host: string;
  port: number;
  apiKey?: string;
  maxInputLength?: number;
  maxTotalTokens?: number;
  inputDir?: string;
  /** Where the input folder is on the service's host (it may be mounted elsewhere here, e.g. /inputs). */
  inputHostDir?: string;
  threads?: number;
  /** The engine options of the runtime's table that were given, by long name. */
  engine: EngineOptionValues;
  /** `--lora NAME=PATH` (repeatable, svc sets it from `svc run --adapter`): LoRA adapters served on the model under NAME. */
  lora: { name: string; path: string }[];
}

export class UsageError extends Error {}

function positiveInteger(name: string, value: string | undefined, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || (!allowZero && number === 0)) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return number;
}

/**
 * Reads the runtime's own options (`--model`, `--port`, …) and, when given its table, the engine
 * options (`--ctx-size`, …) by the same rules the orchestrator checks them with.
 */
export function parseRuntimeArgs(argv: string[], engineOptions: readonly EngineOption[] = []): RuntimeArgs {
  const engine = parseEngineArgs(argv, engineOptions);
  if (engine.problems.length > 0) throw new UsageError(engine.problems.join(" "));
  const { values } = parseArgs({
    args: engine.unknown,
    strict: true,
    allowPositionals: false,
    options: {
      model: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8080" },
      "api-key": { type: "string" },
      "api-key-file": { type: "string" },
      "max-input-length": { type: "string" },
      "max-total-tokens": { type: "string" },
      "input-dir": { type: "string" },
      "input-host-dir": { type: "string" },
      threads: { type: "string" },
      lora: { type: "string", multiple: true },
    },
  });
  if (!values.model) throw new UsageError("--model <snapshot dir> is required");
  const port = positiveInteger("port", values.port, true)!;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const maxInputLength = positiveInteger("max-input-length", values["max-input-length"]);
  const maxTotalTokens = positiveInteger("max-total-tokens", values["max-total-tokens"]);
  if (maxInputLength !== undefined && maxTotalTokens !== undefined && maxInputLength >= maxTotalTokens) {
    throw new UsageError("--max-input-length must be smaller than --max-total-tokens");
  }
  if (values["input-host-dir"] !== undefined && !values["input-host-dir"].startsWith("/")) throw new UsageError("--input-host-dir must be an absolute path");
  const threads = engine.values["--threads"];
  return {
    model: values.model,
    host: values.host!,
    port,
    apiKey: readApiKey(values["api-key"], values["api-key-file"]),
    maxInputLength,
    maxTotalTokens,
    inputDir: values["input-dir"],
    inputHostDir: values["input-host-dir"],
    threads: typeof threads === "number" ? threads : positiveInteger("threads", values.threads),
    engine: engine.values,
    lora: (values.lora ?? []).map(loraPair),
  };
}

/** `NAME=PATH` of a LoRA adapter: the name up to the first `=`, the absolute path after it. */
function loraPair(value: string): { name: string; path: string } {
  const at = value.indexOf("=");
  const name = value.slice(0, at);
  const path = value.slice(at + 1);
  if (at <= 0 || !path.startsWith("/")) throw new UsageError(`--lora must be NAME=ABSOLUTE_PATH, got "${value}"`);
  return { name, path };
}
