import { readFileSync } from "node:fs";
import { UsageError } from "./args";

/** The environment variable a runtime reads its API key from when no option names one. */
export const API_KEY_VARIABLE = "SVC_API_KEY";

/**
 * The key callers must present, from (first that is given) `--api-key K` (for people running a
 * runtime by hand; other local users see it in `ps`), `--api-key-file F` (the first line of a file,
 * e.g. a 0600 file or a read-only mount: what svc uses), or SVC_API_KEY. Undefined: no key.
 */
export function readApiKey(option: string | undefined, file: string | undefined, env: Record<string, string | undefined> = process.env): string | undefined {
  if (option !== undefined) {
    if (option === "") throw new UsageError("--api-key must not be empty");
    return option;
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new UsageError(`--api-key-file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const key = text.split(/\r?\n/)[0].trim();
    if (!key) throw new UsageError(`--api-key-file ${file} is empty: write the key on its first line`);
    return key;
  }
  const fromEnv = env[API_KEY_VARIABLE]?.trim();
  return fromEnv ? fromEnv : undefined;
}
