import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ParsedKey } from "ssh2";

/** The key files ssh tries when none is configured, in its order (those ssh2 can use). */
export const DEFAULT_KEY_NAMES = ["id_rsa", "id_ecdsa", "id_ed25519"];

export interface LoadedKey {
  path: string;
  key: Buffer;
}

export interface KeyLoadResult {
  keys: LoadedKey[];
  /** Why some named keys could not be used (missing, passphrase-protected, unsupported). */
  skipped: string[];
}

/**
 * Loads private keys: the given files, else the default ones in ~/.ssh. A passphrase-protected key
 * cannot be used without a prompt, so it is skipped with a note (load it into ssh-agent instead).
 * `parseKey` is ssh2's (utils.parseKey), given by the caller that has loaded ssh2.
 */
export function loadKeys(files: string[], userHome: string, parseKey: (data: Buffer) => ParsedKey | ParsedKey[] | Error): KeyLoadResult {
  const explicit = files.length > 0;
  const candidates = explicit ? files : DEFAULT_KEY_NAMES.map((name) => join(userHome, ".ssh", name));
  const keys: LoadedKey[] = [];
  const skipped: string[] = [];
  for (const path of candidates) {
    if (!existsSync(path)) {
      if (explicit) skipped.push(`${path} does not exist`);
      continue;
    }
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch (error) {
      skipped.push(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      continue;
    }
    const parsed = parseKey(data);
    if (parsed instanceof Error) {
      const encrypted = /passphrase|encrypted/i.test(parsed.message);
      skipped.push(encrypted ? `${path} is passphrase-protected: add it to ssh-agent (ssh-add ${path})` : `${path} is not a usable private key (${parsed.message})`);
      continue;
    }
    keys.push({ path, key: data });
  }
  return { keys, skipped };
}
