import { utcDayStart, utcMonthStart } from "./utc-periods";

interface Spend {
  day: number;
  dayTokens: number;
  month: number;
  monthTokens: number;
  /** What requests in flight were admitted with: held against the budgets until they are settled. */
  reserved: number;
}

/**
 * What each key spent of its budgets: the tokens usage recorded for it this UTC day and calendar
 * month (UTC), kept for every key (a budget set later counts what was used before it), and what
 * its requests in flight may still use.
 */
export class SpendLedger {
  private readonly byKey = new Map<string, Spend>();

  private spendOf(keyId: string, now: number): Spend {
    let spend = this.byKey.get(keyId);
    if (!spend) {
      spend = { day: utcDayStart(now), dayTokens: 0, month: utcMonthStart(now), monthTokens: 0, reserved: 0 };
      this.byKey.set(keyId, spend);
    }
    const day = utcDayStart(now);
    if (day > spend.day) Object.assign(spend, { day, dayTokens: 0 });
    const month = utcMonthStart(now);
    if (month > spend.month) Object.assign(spend, { month, monthTokens: 0 });
    return spend;
  }

  /** Tokens used by a request recorded at `at` (one that ended in an earlier period counts only in the periods it is in). */
  spent(keyId: string, tokens: number, at: number): void {
    if (tokens <= 0) return;
    const spend = this.spendOf(keyId, at);
    if (utcDayStart(at) === spend.day) spend.dayTokens += tokens;
    if (utcMonthStart(at) === spend.month) spend.monthTokens += tokens;
  }

  /** The tokens a key used this UTC day and month, and what its requests in flight hold. */
  used(keyId: string, now: number): { day: number; month: number; reserved: number } {
    const spend = this.spendOf(keyId, now);
    return { day: spend.dayTokens, month: spend.monthTokens, reserved: spend.reserved };
  }

  /** What the usage table says a key used this day and month (at start). */
  restore(keyId: string, day: number, month: number, now: number): void {
    Object.assign(this.spendOf(keyId, now), { dayTokens: day, monthTokens: month });
  }

  reserve(keyId: string, tokens: number, now: number): void {
    this.spendOf(keyId, now).reserved += tokens;
  }

  release(keyId: string, tokens: number, now: number): void {
    const spend = this.spendOf(keyId, now);
    spend.reserved = Math.max(0, spend.reserved - tokens);
  }
}
