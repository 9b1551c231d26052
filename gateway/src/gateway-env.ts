import { SERVICES, upstreamVariable, type ServiceName } from "@svc/contracts";
import { ConfigError, loadSettings, type Settings } from "@svc/platform";

export interface GatewayEnv {
  settings: Settings;
  internalSecret: string;
  /** Base URL of each internal service. */
  upstreams: Record<ServiceName, string>;
  /** The token callers must present when debug mode is off. */
  authToken: string | undefined;
}

export function readGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  const settings = loadSettings(env);
  const internalSecret = env.SVC_INTERNAL_SECRET;
  if (!internalSecret || internalSecret.length < 32) {
    throw new ConfigError("SVC_INTERNAL_SECRET is missing or shorter than 32 characters: the gateway is started by `svc start`, which sets it.");
  }
  const upstreams = {} as Record<ServiceName, string>;
  for (const { name } of SERVICES) {
    const url = env[upstreamVariable(name)];
    if (!url || !URL.canParse(url)) throw new ConfigError(`${upstreamVariable(name)} must be the base URL of ${name}, e.g. http://127.0.0.1:8101.`);
    upstreams[name] = url.replace(/\/$/, "");
  }
  if (!settings.debug && !settings.authToken) {
    throw new ConfigError("Debug mode is off but no auth token is set: set SVC_AUTH_TOKEN (svc start generates one when it is unset).");
  }
  return { settings, internalSecret, upstreams, authToken: settings.debug ? undefined : settings.authToken };
}
