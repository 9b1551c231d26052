import { ConfigError } from "@svc/platform/config";

/** The public Hugging Face hub: the default of HF_ENDPOINT, written in this one place only. */
export const DEFAULT_HF_ENDPOINT = "https://huggingface.co";

/** Seconds, when the environment does not say. */
export const DEFAULT_HUB_TIMEOUTS = { connect: 10, stall: 30 } as const;

export interface HubSettings {
  /** Base URL of the hub (HF_ENDPOINT), without a trailing slash. */
  endpoint: string;
  /** HF_TOKEN, sent as a bearer token when set. */
  token: string | undefined;
  /** How long to wait for a request's answer to begin (connecting included): SVC_HUB_CONNECT_TIMEOUT. */
  connectTimeoutMs: number;
  /** How long an answer may send no byte before it counts as stalled: SVC_HUB_STALL_TIMEOUT. */
  stallTimeoutMs: number;
}

function seconds(env: Record<string, string | undefined>, variable: string, fallback: number): number {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === "") return fallback * 1000;
  const value = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(value > 0) || value > 3600) {
    throw new ConfigError(`${variable}=${JSON.stringify(raw)} is not a timeout: give seconds, more than 0 and at most 3600 (e.g. ${fallback} or 0.5).`);
  }
  return value * 1000;
}

/**
 * HF_ENDPOINT, HF_TOKEN and the hub timeouts from the environment model-svc runs in (that of
 * `svc start`), read at each use; a bad timeout throws a ConfigError naming the variable.
 */
export function hubSettings(env: Record<string, string | undefined> = process.env): HubSettings {
  const endpoint = (env.HF_ENDPOINT || DEFAULT_HF_ENDPOINT).replace(/\/+$/, "");
  return {
    endpoint,
    token: env.HF_TOKEN || undefined,
    connectTimeoutMs: seconds(env, "SVC_HUB_CONNECT_TIMEOUT", DEFAULT_HUB_TIMEOUTS.connect),
    stallTimeoutMs: seconds(env, "SVC_HUB_STALL_TIMEOUT", DEFAULT_HUB_TIMEOUTS.stall),
  };
}
