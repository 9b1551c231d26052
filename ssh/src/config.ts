import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import SSHConfig from "ssh-config";

/** Where to connect, as a caller knows it: a host (or a `~/.ssh/config` alias) and optional overrides. */
export interface SshTarget {
  host: string;
  /** Wins over `User` in ~/.ssh/config. */
  user?: string;
  /** Wins over `Port` in ~/.ssh/config; default 22. */
  port?: number;
  /** An explicit private key; when given, only this key is offered (like IdentitiesOnly). */
  identityFile?: string;
}

/** The target after applying ~/.ssh/config: what the connection actually uses. */
export interface ResolvedTarget {
  /** As given (may be an alias). */
  alias: string;
  /** The address to connect to (`HostName`, else the alias). */
  hostName: string;
  port: number;
  user: string;
  /** Keys named by the target or by `IdentityFile`; empty means the default key files. */
  identityFiles: string[];
  /** Whether to offer only `identityFiles` (explicit key, or `IdentitiesOnly yes`). */
  identitiesOnly: boolean;
  /** known_hosts files to check, the first being the one new keys are recorded in. */
  knownHostsFiles: string[];
  /** The name keys are recorded under (`HostKeyAlias`, else the host name). */
  hostKeyName: string;
  /** `ConnectTimeout` in seconds, when set. */
  connectTimeoutSeconds?: number;
}

export interface ResolveOptions {
  /** The local user's home (holds .ssh/); default $HOME. */
  userHome: string;
  /** The local user name, used when neither the target nor the config names one. */
  localUser: string;
}

function expand(path: string, tokens: Record<string, string>, userHome: string): string {
  const replaced = path.replace(/%([%dhpru])/g, (_, token: string) => (token === "%" ? "%" : (tokens[token] ?? "")));
  if (replaced === "~") return userHome;
  if (replaced.startsWith("~/")) return join(userHome, replaced.slice(2));
  return isAbsolute(replaced) ? replaced : join(userHome, ".ssh", replaced);
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Reads ~/.ssh/config (when present) and applies it to `target` as ssh would. */
export function resolveTarget(target: SshTarget, { userHome, localUser }: ResolveOptions): ResolvedTarget {
  const configFile = join(userHome, ".ssh", "config");
  let computed: Record<string, string | string[]> = {};
  if (existsSync(configFile)) {
    const config = SSHConfig.parse(readFileSync(configFile, "utf8"));
    // Match exec would run commands from the file; svc never does that.
    computed = config.compute({ Host: target.host, User: target.user }, { ignoreCase: true, matchExec: false });
  }
  const first = (key: string) => asList(computed[key])[0];
  const hostName = (first("hostname") ?? target.host).replaceAll("%h", target.host);
  const configPort = Number(first("port"));
  const port = target.port ?? (Number.isInteger(configPort) && configPort > 0 ? configPort : 22);
  const user = target.user ?? first("user") ?? localUser;
  const tokens = { d: userHome, h: hostName, p: String(port), r: user, u: localUser };
  const explicit = target.identityFile ? [expand(target.identityFile, tokens, userHome)] : [];
  const fromConfig = asList(computed.identityfile).map((file) => expand(file, tokens, userHome));
  const knownHostsFiles = (first("userknownhostsfile") ?? "~/.ssh/known_hosts ~/.ssh/known_hosts2")
    .split(/\s+/)
    .filter(Boolean)
    .map((file) => expand(file, tokens, userHome));
  const timeout = Number(first("connecttimeout"));
  return {
    alias: target.host,
    hostName,
    port,
    user,
    identityFiles: explicit.length > 0 ? explicit : fromConfig,
    identitiesOnly: explicit.length > 0 || first("identitiesonly")?.toLowerCase() === "yes",
    knownHostsFiles,
    hostKeyName: first("hostkeyalias") ?? hostName,
    connectTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
  };
}
