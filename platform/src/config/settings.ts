import { ConfigError, parseBoolean, parseDirectory, parseHost, parseHostList, parsePort, parseToken } from "./parse";

/** The application's settings, shared by `svc start`, the services and the CLI. */
export interface Settings {
  host: string;
  port: number;
  homeDir: string;
  debug: boolean;
  /** User-defined auth token (SVC_AUTH_TOKEN or SVC_TOKEN); unused while debug is on. */
  authToken: string | undefined;
  /** Host names the gateway answers to besides `host` and loopback (e.g. a reverse proxy's name), lower case. */
  allowedHosts: string[];
}

/** Values given as `svc start` options; they win over the environment. */
export interface SettingsOverrides {
  host?: string;
  port?: string | number;
  homeDir?: string;
  debug?: string | boolean;
  authToken?: string;
  allowedHosts?: string;
}

export const DEFAULTS = { host: "localhost", port: 8000, homeDir: "~/.svc", debug: true } as const;

/** Each setting, the option that overrides it, and its variables in order of preference (current name first). */
export const SETTING_SOURCES = {
  host: { option: "--host", variables: ["SVC_HOST"] },
  port: { option: "--port", variables: ["SVC_PORT"] },
  homeDir: { option: "--home-dir", variables: ["SVC_HOME_DIR"] },
  debug: { option: "--debug", variables: ["SVC_DEBUG", "SVC_DEV_MODE"] },
  authToken: { option: "--auth-token", variables: ["SVC_AUTH_TOKEN", "SVC_TOKEN"] },
  allowedHosts: { option: "--allowed-hosts", variables: ["SVC_ALLOWED_HOSTS"] },
} as const;

type Env = Record<string, string | undefined>;

function pick<K extends keyof typeof SETTING_SOURCES>(
  key: K,
  env: Env,
  overrides: SettingsOverrides,
): { raw: string | number | boolean; source: string } | undefined {
  const sources = SETTING_SOURCES[key];
  const override = overrides[key];
  if (override !== undefined && override !== "") return { raw: override, source: sources.option };
  for (const variable of sources.variables) {
    const value = env[variable];
    if (value !== undefined && value !== "") return { raw: value, source: variable };
  }
  return undefined;
}

/** Reads settings from options and environment; throws ConfigError naming the bad variable and the accepted values. */
export function loadSettings(env: Env = process.env, overrides: SettingsOverrides = {}): Settings {
  // node:os only without HOME: loading it costs every CLI command ~0.4 ms.
  const userHome = env.HOME || (import.meta.require("node:os") as typeof import("node:os")).homedir();
  const host = pick("host", env, overrides);
  const port = pick("port", env, overrides);
  const homeDir = pick("homeDir", env, overrides);
  const debug = pick("debug", env, overrides);
  const token = pick("authToken", env, overrides);
  const allowedHosts = pick("allowedHosts", env, overrides);
  return {
    host: host ? parseHost(String(host.raw), host.source) : DEFAULTS.host,
    port: port ? parsePort(port.raw as string | number, port.source, true) : DEFAULTS.port,
    homeDir: parseDirectory(homeDir ? String(homeDir.raw) : DEFAULTS.homeDir, homeDir?.source ?? "SVC_HOME_DIR", userHome),
    debug: debug ? parseBoolean(debug.raw as string | boolean, debug.source) : DEFAULTS.debug,
    authToken: token ? parseToken(String(token.raw), token.source) : undefined,
    allowedHosts: allowedHosts ? parseHostList(String(allowedHosts.raw), allowedHosts.source) : [],
  };
}

/** The base URL of the application as seen by a local client (CLI, browser on this machine). */
export function appUrl(settings: Pick<Settings, "host" | "port">): string {
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return `http://${host}:${settings.port}`;
}

/** Names every local client may use for this machine, whatever the settings say. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"] as const;

/** Whether `host` (as settings hold it, without brackets) only reaches this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

export { ConfigError };
