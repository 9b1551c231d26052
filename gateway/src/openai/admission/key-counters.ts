import type { KeyLimits } from "@svc/contracts";
import { MINUTE_MS, TokenBucket } from "./token-bucket";

/** A request usage recorded for a key in the last minute, as the counters are rebuilt from it at start. */
export interface RecentRequest {
  at: number;
  tokens: number;
  /** It took one of the key's requests a minute (it was not refused by them). */
  counted: boolean;
}

function follow(bucket: TokenBucket | undefined, limit: number | null, now: number): TokenBucket | undefined {
  if (limit === null) return undefined;
  if (!bucket) return new TokenBucket(limit, now);
  return bucket.capacity === limit ? bucket : bucket.resized(limit, now);
}

/** One key's rates: its requests- and tokens-per-minute buckets (where it has those limits), and its requests in flight. */
export class KeyCounters {
  requests: TokenBucket | undefined;
  tokens: TokenBucket | undefined;
  inFlight = 0;
  private limits: KeyLimits | undefined;

  constructor(limits: KeyLimits, now: number) {
    this.follow(limits, now);
  }

  /** Takes a changed limit from now on; what was used of the minute stays used. */
  follow(limits: KeyLimits, now: number): void {
    if (limits === this.limits) return;
    this.limits = limits;
    this.requests = follow(this.requests, limits.requestsPerMinute, now);
    this.tokens = follow(this.tokens, limits.tokensPerMinute, now);
  }

  /** The buckets as `recent` (the last minute's requests, oldest first) left them. */
  replay(recent: RecentRequest[], now: number): void {
    const start = now - MINUTE_MS;
    if (this.limits?.requestsPerMinute) this.requests = new TokenBucket(this.limits.requestsPerMinute, start);
    if (this.limits?.tokensPerMinute) this.tokens = new TokenBucket(this.limits.tokensPerMinute, start);
    for (const request of recent) {
      if (request.counted) this.requests?.take(1, request.at);
      this.tokens?.take(request.tokens, request.at);
    }
  }
}
