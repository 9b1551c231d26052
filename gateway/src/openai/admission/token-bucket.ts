/** A minute: the period of requests- and tokens-per-minute limits. */
export const MINUTE_MS = 60_000;
/** What floating point leaves of a bucket that is full enough. */
const EPSILON = 1e-9;

/**
 * A limit per minute as a token bucket: it holds up to `capacity`, refilling evenly over
 * `periodMs` (a limit of 2 a minute gives one back every 30 s). Taking may leave it below zero:
 * a request settled with more tokens than it was admitted with is a debt paid by refilling.
 */
export class TokenBucket {
  private level: number;
  private at: number;

  constructor(
    readonly capacity: number,
    now: number,
    private readonly periodMs = MINUTE_MS,
  ) {
    this.level = capacity;
    this.at = now;
  }

  private refill(now: number): void {
    if (now <= this.at) return;
    this.level = Math.min(this.capacity, this.level + ((now - this.at) * this.capacity) / this.periodMs);
    this.at = now;
  }

  /** What it holds now (below zero while in debt). */
  available(now: number): number {
    this.refill(now);
    return this.level;
  }

  /** How long until it holds `amount` (0: now); Infinity for more than it can ever hold. */
  waitMs(amount: number, now: number): number {
    if (amount > this.capacity) return Infinity;
    const missing = amount - this.available(now);
    return missing <= EPSILON ? 0 : (missing * this.periodMs) / this.capacity;
  }

  /** Takes `amount` (a negative amount gives back, never above capacity). */
  take(amount: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.capacity, this.level - amount);
  }

  /** How long until it is full again. */
  fullInMs(now: number): number {
    return Math.max(0, ((this.capacity - this.available(now)) * this.periodMs) / this.capacity);
  }

  /** The bucket for a new capacity, with what was used of this one still used. */
  resized(capacity: number, now: number): TokenBucket {
    const bucket = new TokenBucket(capacity, now, this.periodMs);
    bucket.take(this.capacity - this.available(now), now);
    return bucket;
  }
}
