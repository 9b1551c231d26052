import { proxyError } from "../../proxy/proxy-error";
import type { TokenEstimate } from "./estimate";

/** Why a key's request is refused: the limit it reached, and when that frees. */
export type LimitRefusal =
  | { kind: "requests"; limit: number; waitMs: number }
  /** waitMs Infinity: the request may use more than the limit itself. */
  | { kind: "tokens"; limit: number; waitMs: number; estimate: TokenEstimate; left: number }
  | { kind: "in-flight"; limit: number }
  | { kind: "budget"; period: "day" | "month"; limit: number; used: number; reserved: number; estimate: TokenEstimate; renewsAt: number; waitMs: number };

/** How long a caller refused for its requests in flight is asked to wait: one of them may end any moment. */
const IN_FLIGHT_RETRY_MS = 1000;

export const retryMsOf = (refusal: LimitRefusal) => (refusal.kind === "in-flight" ? IN_FLIGHT_RETRY_MS : refusal.waitMs);

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** "5 h 3 min", "12 min", "40 s". */
function inWords(ms: number): string {
  const total = seconds(ms);
  if (total < 60) return `${total} s`;
  const minutes = Math.ceil(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days && `${days} d`, hours && `${hours} h`, rest && `${rest} min`].filter(Boolean).join(" ");
}

const asked = (estimate: TokenEstimate) => `${estimate.total} tokens (prompt about ${estimate.prompt}, completion up to ${estimate.completion})`;

function renewal(period: "day" | "month", at: number): string {
  return period === "day" ? "00:00 UTC" : `${new Date(at).toISOString().slice(0, 10)} 00:00 UTC`;
}

function message(refusal: LimitRefusal, key: string): string {
  switch (refusal.kind) {
    case "requests":
      return `Rate limit of ${refusal.limit} requests per minute reached for key '${key}'; try again in ${seconds(refusal.waitMs)} s.`;
    case "tokens":
      if (refusal.waitMs === Infinity) {
        return `Request too large for key '${key}': it may use ${asked(refusal.estimate)}, more than its limit of ${refusal.limit} tokens per minute; send a shorter prompt or ask for fewer completion tokens (max_tokens).`;
      }
      return `Rate limit of ${refusal.limit} tokens per minute reached for key '${key}': this request may use ${asked(refusal.estimate)} and ${Math.max(0, Math.floor(refusal.left))} are left; try again in ${seconds(refusal.waitMs)} s.`;
    case "in-flight":
      return `Limit of ${refusal.limit} requests in flight at once reached for key '${key}'; try again when one of them has ended.`;
    case "budget": {
      const name = refusal.period === "day" ? "Daily" : "Monthly";
      const when = `it renews at ${renewal(refusal.period, refusal.renewsAt)}, in ${inWords(refusal.waitMs)}`;
      const left = refusal.limit - refusal.used - refusal.reserved;
      if (left <= 0) {
        const held = refusal.reserved > 0 ? `, ${refusal.reserved} held by requests in flight` : "";
        return `${name} token budget of ${refusal.limit} spent for key '${key}' (${refusal.used} used${held}); ${when}.`;
      }
      return `${name} token budget of ${refusal.limit} for key '${key}' has ${left} tokens left and this request may use ${asked(refusal.estimate)}; ask for fewer completion tokens (max_tokens), or wait: ${when}.`;
    }
  }
}

/**
 * The 429 OpenAI answers a limited client: its error body (`rate_limit_exceeded` for a rate or
 * in-flight limit, `insufficient_quota` for a spent budget; the message names the limit and when it
 * frees), `Retry-After` in whole seconds and `retry-after-ms` (what the official clients wait
 * for), and the key's `x-ratelimit-*` headers. A request larger than a limit per minute can ever
 * take gets no Retry-After: waiting would not help.
 */
export function limitRefusal(refusal: LimitRefusal, key: string, rateHeaders: Record<string, string>): Response {
  const retryMs = retryMsOf(refusal);
  const headers = Number.isFinite(retryMs) ? { ...rateHeaders, "retry-after": String(seconds(retryMs)), "retry-after-ms": String(Math.max(1, Math.ceil(retryMs))) } : rateHeaders;
  const [code, type] = refusal.kind === "budget" ? ["insufficient_quota", "insufficient_quota"] : ["rate_limit_exceeded", refusal.kind === "tokens" ? "tokens" : "requests"];
  return proxyError(429, code, message(refusal, key), headers, null, type);
}
