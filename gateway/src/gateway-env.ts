import type { ServiceName } from "@svc/contracts";
import { ConfigError, loadSettings, parseFairShare, parseUsageRetentionDays, readInternalSecret, readUpstreams, type FairShareSettings, type Settings } from "@svc/platform";

export interface GatewayEnv {
  settings: Settings;
  internalSecret: string;
  /** Base URL of each internal service. */
  upstreams: Record<ServiceName, string>;
  /** The token callers must present when debug mode is off. */
  authToken: string | undefined;
  /** Days /v1 usage is kept (SVC_USAGE_RETENTION_DAYS). */
  usageRetentionDays?: number;
  /** Fair share of a saturated model (SVC_FAIR_SHARE, SVC_FAIR_SHARE_QUEUE_SECONDS, SVC_FAIR_SHARE_QUEUE_PER_KEY); default on, 60 s, 256. */
  fairShare?: FairShareSettings;
}

export function readGatewayEnv(env: Record<string, string | undefined> = process.env): GatewayEnv {
  const settings = loadSettings(env);
  const internalSecret = readInternalSecret(env, "the gateway");
  const upstreams = readUpstreams(env);
  if (!settings.debug && !settings.authToken) {
    throw new ConfigError("Debug mode is off but no auth token is set: set SVC_AUTH_TOKEN (svc start generates one when it is unset).");
  }
  return { settings, internalSecret, upstreams, authToken: settings.debug ? undefined : settings.authToken, usageRetentionDays: parseUsageRetentionDays(env), fairShare: parseFairShare(env) };
}
