import { parseArgs } from "node:util";
import { readApiKey } from "./api-key";

/** Engine-style command-line options shared by the runtimes. */
export interface RuntimeArgs {
  model: string;
  host: string;
  port: number;
  apiKey?: string;
  maxInputLength?: number;
  maxTotalTokens?: number;
  inputDir?: string;
  threads?: number;
}

export class UsageError extends Error {}

function positiveInteger(name: string, value: string | undefined, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || (!allowZero && number === 0)) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return number;
}

export function parseRuntimeArgs(argv: string[]): RuntimeArgs {
  const { values } = parseArgs({
    args: argv,
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
      threads: { type: "string" },
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
  return {
    model: values.model,
    host: values.host!,
    port,
    apiKey: readApiKey(values["api-key"], values["api-key-file"]),
    maxInputLength,
    maxTotalTokens,
    inputDir: values["input-dir"],
    threads: positiveInteger("threads", values.threads),
  };
}
