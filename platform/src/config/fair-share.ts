import { parseBoolean, parseWholeNumberVariable } from "./parse";

/** How the gateway shares a saturated model among the keys waiting for it (docs/fair-share.md). */
export interface FairShareSettings {
  /** Off: requests go to the model's replicas as they come, however busy (SVC_FAIR_SHARE). */
  enabled: boolean;
  /** The longest a request waits in the queue before it is refused with 429 (SVC_FAIR_SHARE_QUEUE_SECONDS). */
  queueSeconds: number;
  /** Requests of one key (or of the svc token, or of anonymous callers) that may wait for one model at once (SVC_FAIR_SHARE_QUEUE_PER_KEY). */
  perKey: number;
}

export const FAIR_SHARE_DEFAULTS: FairShareSettings = { enabled: true, queueSeconds: 60, perKey: 256 };

/** The gateway's fair-share settings from the environment, each variable checked (a ConfigError names the bad one). */
export function parseFairShare(env: Record<string, string | undefined>): FairShareSettings {
  const enabled = env.SVC_FAIR_SHARE;
  return {
    enabled: enabled === undefined || enabled.trim() === "" ? FAIR_SHARE_DEFAULTS.enabled : parseBoolean(enabled, "SVC_FAIR_SHARE"),
    queueSeconds: parseWholeNumberVariable(env, "SVC_FAIR_SHARE_QUEUE_SECONDS", 3600, FAIR_SHARE_DEFAULTS.queueSeconds, "seconds"),
    perKey: parseWholeNumberVariable(env, "SVC_FAIR_SHARE_QUEUE_PER_KEY", 100_000, FAIR_SHARE_DEFAULTS.perKey, "requests"),
  };
}
