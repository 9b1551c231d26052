import { ApiError, SvcUnreachableError } from "@svc/client";
import { ConfigError, DEFAULTS, type Settings } from "@svc/platform/config";
import { AlreadyRunningError, StartError } from "@svc/supervisor";

/** A usage problem (unknown command or option, missing argument): exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A request that cannot be done in the current state (e.g. removing a running service): exit code 1, the message as it is. */
export class StateError extends Error {
  override name = "StateError";
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

function unreachableMessage(error: SvcUnreachableError, settings: Settings | undefined): string {
  const where = settings ? `${settings.host}:${settings.port}` : error.baseUrl;
  return [
    `svc: cannot reach the svc application at ${where}.`,
    `Is \`svc start\` running? The CLI finds it through SVC_HOST and SVC_PORT (defaults ${DEFAULTS.host}:${DEFAULTS.port});`,
    `they must match the settings the application was started with.`,
  ].join("\n");
}

/** Prints one clear message for any error and returns the exit code. Never a stack trace unless SVC_CLI_TRACE=1. */
export function reportError(error: unknown, err: (text: string) => void, settings: Settings | undefined, command?: string): number {
  if (error instanceof UsageError || (error instanceof Error && error.name === "CACError")) {
    err(`svc: ${(error as Error).message}\nRun 'svc ${command ? `${command} ` : ""}--help' for usage.`);
    return EXIT.usage;
  }
  if (error instanceof ConfigError) {
    err(`svc: ${error.message}`);
    return EXIT.usage;
  }
  if (error instanceof SvcUnreachableError) {
    err(unreachableMessage(error, settings));
    return EXIT.failure;
  }
  if (error instanceof ApiError) {
    const hint =
      error.status === 401 ? "\nSet SVC_AUTH_TOKEN to the application's auth token (or keep the token file svc start wrote in SVC_HOME_DIR)." : "";
    err(`svc: ${error.message}${hint}`);
    return EXIT.failure;
  }
  if (error instanceof AlreadyRunningError || error instanceof StartError || error instanceof StateError) {
    err(`svc: ${error.message}`);
    return EXIT.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  err(`svc: unexpected error: ${message}`);
  if (process.env.SVC_CLI_TRACE === "1" && error instanceof Error && error.stack) err(error.stack);
  return EXIT.failure;
}
