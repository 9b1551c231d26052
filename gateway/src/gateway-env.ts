import type { ServiceName } from "@svc/contracts";
import { ConfigError, loadSettings, readInternalSecret, readUpstreams, type Settings } from "@svc/platform";

export interface GatewayEnv {
  settings: Settings;
  internalSecret: string;
  /** Base URL of each internal service. */
  upstreams: Record<ServiceName, string>;
  /** The token callers must present when debug mode is off. */
  authToken: string | undefined;
  /** Days /v1 usage is kept (SVC_USAGE_RETENTION_DAYS). */
  usageRetentionDays?: number;
}

export const DEFAULT_USAGE_RETENTION_DAYS = 90;

function retentionDays(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_USAGE_RETENTION_DAYS;
  const days = Number(value.trim());
  if (!Number.isInteger(days) || days < 1 || days > 36500) throw new ConfigError(`SVC_USAGE_RETENTION_DAYS=${JSON.stringify(value)}: use a whole number of days from 1 to 36500 (default ${DEFAULT_USAGE_RETENTION_DAYS}).`);
  return days;
}

export function readGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  const settings = loadSettings(env);
  const internalSecret = readInternalSecret(env, "the gateway");
  const upstreams = readUpstreams(env);
  if (!settings.debug && !settings.authToken) {
    throw new ConfigError("Debug mode is off but no auth token is set: set SVC_AUTH_TOKEN (svc start generates one when it is unset).");
  }
  return { settings, internalSecret, upstreams, authToken: settings.debug ? undefined : settings.authToken, usageRetentionDays: retentionDays(env.SVC_USAGE_RETENTION_DAYS) };
}
