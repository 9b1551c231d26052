/**
 * A duration as OpenAI writes its `x-ratelimit-reset-*` headers (Go's form): `120ms` under a
 * second, else `1s`, `28.5s`, `6m0s`, `1h2m3s`.
 */
export function resetText(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = Number(((whole % 60_000) / 1000).toFixed(3));
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** One limited dimension (requests or tokens) of a key: its limit, what is left and how long until the bucket is full again. */
export interface RateState {
  limit: number;
  remaining: number;
  resetMs: number;
}

/** OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` headers for the dimensions a key is limited in, added to `headers`. */
export function addRateHeaders(headers: Record<string, string>, dimension: "requests" | "tokens", state: RateState | undefined): void {
  if (!state) return;
  headers[`x-ratelimit-limit-${dimension}`] = String(state.limit);
  headers[`x-ratelimit-remaining-${dimension}`] = String(Math.max(0, Math.floor(state.remaining)));
  headers[`x-ratelimit-reset-${dimension}`] = resetText(state.resetMs);
}
