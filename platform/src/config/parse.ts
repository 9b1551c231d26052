import { joinPath, resolvePath } from "./posix-path";

/** Parsers for setting values. Each returns the parsed value or throws a ConfigError naming the source. */

export class ConfigError extends Error {
  override name = "ConfigError";
}

const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];

export function parseBoolean(raw: string | boolean, source: string): boolean {
  if (typeof raw === "boolean") return raw;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new ConfigError(
    `${source}=${JSON.stringify(raw)} is not a boolean: use one of 1/0, true/false, yes/no, on/off.`,
  );
}

/** A port number; with `anyAllowed`, also 0 ("any free port", for what binds it itself). */
export function parsePort(raw: string | number, source: string, anyAllowed = false): number {
  const text = String(raw).trim();
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  const lowest = anyAllowed ? 0 : 1;
  if (!Number.isInteger(port) || port < lowest || port > 65535) {
    throw new ConfigError(`${source}=${JSON.stringify(String(raw))} is not a port: use a whole number from ${lowest} to 65535${anyAllowed ? " (0: any free port)" : ""}.`);
  }
  return port;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:]+(%[A-Za-z0-9]+)?$/;

export function parseHost(raw: string, source: string): string {
  const host = raw.trim();
  const unbracketed = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (HOSTNAME.test(host) || IPV4.test(host) || (unbracketed.includes(":") && IPV6.test(unbracketed))) {
    return unbracketed;
  }
  throw new ConfigError(
    `${source}=${JSON.stringify(raw)} is not a host name: use a name such as localhost or an IP address such as 127.0.0.1, without scheme or port.`,
  );
}

/** A comma-separated list of host names or addresses (e.g. `svc.example.org,gpu-box`), lower case, without brackets. */
export function parseHostList(raw: string, source: string): string[] {
  const names = raw.split(",").map((name) => name.trim()).filter(Boolean);
  return [...new Set(names.map((name) => parseHost(name, source).toLowerCase()))];
}

export const MIN_TOKEN_LENGTH = 16;

export function parseToken(raw: string, source: string): string {
  if (raw.length < MIN_TOKEN_LENGTH || /\s/.test(raw)) {
    throw new ConfigError(
      `${source} must be at least ${MIN_TOKEN_LENGTH} characters without spaces; generate one with: openssl rand -hex 32`,
    );
  }
  return raw;
}

/** A directory path; `~` at the start means the user's home. Returns an absolute path. */
export function parseDirectory(raw: string, source: string, userHome: string): string {
  const text = raw.trim();
  if (text === "") throw new ConfigError(`${source} is empty: give a directory path, e.g. ~/.svc.`);
  if (text.includes("\0")) throw new ConfigError(`${source} contains a NUL byte: give a plain directory path.`);
  const expanded = text === "~" ? userHome : text.startsWith("~/") ? joinPath(userHome, text.slice(2)) : text;
  return resolvePath(expanded);
}

export const DEFAULT_USAGE_RETENTION_DAYS = 90;

/** A variable holding a whole number from 1 to `max` (`fallback` when unset or empty); `unit` names what it counts in the message. */
export function parseWholeNumberVariable(env: Record<string, string | undefined>, variable: string, max: number, fallback: number, unit = ""): number {
  const value = env[variable];
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value.trim());
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new ConfigError(`${variable}=${JSON.stringify(value)}: use a whole number${unit ? ` of ${unit}` : ""} from 1 to ${max} (default ${fallback}).`);
  }
  return number;
}

/** SVC_USAGE_RETENTION_DAYS: how many days the gateway keeps the usage of /v1 requests. */
export const parseUsageRetentionDays = (env: Record<string, string | undefined>): number => parseWholeNumberVariable(env, "SVC_USAGE_RETENTION_DAYS", 36500, DEFAULT_USAGE_RETENTION_DAYS, "days");
