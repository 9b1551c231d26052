import type { Settings } from "@svc/platform/config";
import type { SvcClient } from "@svc/client";

/** Where the CLI writes; tests pass collectors instead of the console. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const consoleIo: Io = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};

/** What every command gets: output, the environment, and lazily the settings and API client. */
export interface CliContext {
  io: Io;
  env: Record<string, string | undefined>;
  settings(): Settings;
  client(): SvcClient;
  /** Prints `value` as JSON when --json is given, else calls `human`. */
  emit(value: unknown, json: boolean, human: () => string): void;
}
