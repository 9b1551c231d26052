import { ConfigError } from "../config";

/** Runs `read`; a ConfigError ends the process with its message and exit code 2, never a stack trace. */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}
