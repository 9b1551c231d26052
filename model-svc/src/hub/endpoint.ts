/** The public Hugging Face hub: the default of HF_ENDPOINT, written in this one place only. */
export const DEFAULT_HF_ENDPOINT = "https://huggingface.co";

export interface HubSettings {
  /** Base URL of the hub (HF_ENDPOINT), without a trailing slash. */
  endpoint: string;
  /** HF_TOKEN, sent as a bearer token when set. */
  token: string | undefined;
}

/** HF_ENDPOINT and HF_TOKEN from the environment model-svc runs in (that of `svc start`), read at each use. */
export function hubSettings(env: Record<string, string | undefined> = process.env): HubSettings {
  const endpoint = (env.HF_ENDPOINT || DEFAULT_HF_ENDPOINT).replace(/\/+$/, "");
  return { endpoint, token: env.HF_TOKEN || undefined };
}
