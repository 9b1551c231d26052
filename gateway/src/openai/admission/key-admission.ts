import type { KeyLimits, ServiceTier } from "@svc/contracts";
import type { Admission, Admitted } from "../admit";
import type { Caller, KeyPolicy } from "../caller";
import type { V1Outcome } from "../outcome";
import type { V1Body } from "../request-body";
import { estimateTokens, NO_TOKENS, type TokenEstimate } from "./estimate";
import { KeyCounters } from "./key-counters";
import { addRateHeaders } from "./rate-headers";
import type { RecordedUsage } from "./recorded-usage";
import { limitRefusal, retryMsOf, type LimitRefusal } from "./refusal";
import { requestTier } from "./service-tier";
import { SpendLedger } from "./spend-ledger";
import { nextUtcDay, nextUtcMonth } from "./utc-periods";

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
/** A request with nothing to count, one for each tier. */
const letIn = (tier: ServiceTier): Admitted => Object.freeze({ tier, headers: NO_HEADERS, settle() {} });
const LET_IN: Record<ServiceTier, Admitted> = { priority: letIn("priority"), default: letIn("default"), flex: letIn("flex") };

const limited = (limits: KeyLimits) =>
  limits.requestsPerMinute !== null || limits.tokensPerMinute !== null || limits.maxParallel !== null || limits.dailyTokens !== null || limits.monthlyTokens !== null;
const countsTokens = (limits: KeyLimits) => limits.tokensPerMinute !== null || limits.dailyTokens !== null || limits.monthlyTokens !== null;

/**
 * The admit stage for API keys: each key's requests and tokens a minute (token buckets), requests
 * in flight (from admission to settling), token budgets per UTC day and calendar month, and the
 * tier its requests go in. A request is held to its estimate (estimate.ts) before it goes out and
 * settled with its real usage after; budgets count what usage records (`recorded`), Batch API
 * lines included. The svc token and anonymous callers are not limited.
 */
export class KeyAdmission implements Admission {
  private readonly spend = new SpendLedger();
  private readonly counters = new Map<string, KeyCounters>();

  constructor(private readonly now: () => number = Date.now) {}

  admit(caller: Caller, _endpoint: string, body: V1Body): Admitted | Response {
    const policy = caller.kind === "key" ? caller.policy : undefined;
    const tier = requestTier(body, policy?.tier);
    if (tier instanceof Response) return tier;
    if (caller.kind !== "key" || !policy || !limited(policy.limits)) return LET_IN[tier];
    return this.admitKey(caller, policy, tier, body);
  }

  private admitKey(caller: { id: string; name: string }, policy: KeyPolicy, tier: ServiceTier, body: V1Body): Admitted | Response {
    const now = this.now();
    const { limits } = policy;
    const counters = this.countersOf(caller.id, limits, now);
    const estimate = countsTokens(limits) ? estimateTokens(body) : NO_TOKENS;
    const refusal = this.budgetRefusal(caller.id, limits, estimate, now) ?? rateRefusal(counters, limits, estimate, now);
    if (refusal) return limitRefusal(refusal, caller.name, rateHeaders(counters, now));

    counters.requests?.take(1, now);
    counters.tokens?.take(estimate.total, now);
    counters.inFlight++;
    this.spend.reserve(caller.id, estimate.total, now);
    let settled = false;
    return {
      tier,
      headers: rateHeaders(counters, now),
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        const at = this.now();
        counters.inFlight--;
        this.spend.release(caller.id, estimate.total, at);
        // Its real usage replaces the estimate: the difference is given back or charged (none recorded: all given back).
        counters.tokens?.take(tokensOf(outcome) - estimate.total, at);
      },
    };
  }

  /** Every request usage records, a /v1 request's or a Batch API line's: what it used counts against its key's budgets. */
  recorded(outcome: V1Outcome): void {
    if (outcome.caller.kind === "key" && outcome.usage) this.spend.spent(outcome.caller.id, tokensOf(outcome), outcome.at.getTime());
  }

  /** The 429 for a caller whose daily or monthly budget is spent (a batch is refused at creation), or undefined. */
  spentBudget(caller: Caller): Response | undefined {
    if (caller.kind !== "key" || !caller.policy) return undefined;
    const refusal = this.budgetRefusal(caller.id, caller.policy.limits, NO_TOKENS, this.now());
    return refusal && limitRefusal(refusal, caller.name, NO_HEADERS);
  }

  /** At start: what each key used, from the usage table, for the keys as they are now. */
  restore(recorded: RecordedUsage, keys: Array<{ id: string; policy: KeyPolicy }>): void {
    const now = this.now();
    for (const id of new Set([...recorded.today.keys(), ...recorded.thisMonth.keys()])) this.spend.restore(id, recorded.today.get(id) ?? 0, recorded.thisMonth.get(id) ?? 0, now);
    for (const { id, policy } of keys) {
      const recent = recorded.lastMinute.get(id);
      if (!recent || (policy.limits.requestsPerMinute === null && policy.limits.tokensPerMinute === null)) continue;
      this.countersOf(id, policy.limits, now).replay(recent, now);
    }
  }

  private countersOf(keyId: string, limits: KeyLimits, now: number): KeyCounters {
    let counters = this.counters.get(keyId);
    if (!counters) this.counters.set(keyId, (counters = new KeyCounters(limits, now)));
    else counters.follow(limits, now);
    return counters;
  }

  /** A budget the request does not fit in: none left, or less than it may use. */
  private budgetRefusal(keyId: string, limits: KeyLimits, estimate: TokenEstimate, now: number): LimitRefusal | undefined {
    if (limits.dailyTokens === null && limits.monthlyTokens === null) return undefined;
    const used = this.spend.used(keyId, now);
    const periods = [
      { period: "day" as const, limit: limits.dailyTokens, spent: used.day, renewsAt: nextUtcDay(now) },
      { period: "month" as const, limit: limits.monthlyTokens, spent: used.month, renewsAt: nextUtcMonth(now) },
    ];
    for (const { period, limit, spent, renewsAt } of periods) {
      if (limit === null) continue;
      const left = limit - spent - used.reserved;
      if (left <= 0 || estimate.total > left) return { kind: "budget", period, limit, used: spent, reserved: used.reserved, estimate, renewsAt, waitMs: renewsAt - now };
    }
    return undefined;
  }
}

const tokensOf = (outcome: V1Outcome | null) => (outcome?.usage ? outcome.usage.promptTokens + outcome.usage.completionTokens : 0);

/** The rate limit the request is over, the one that frees last where it is over several. */
function rateRefusal(counters: KeyCounters, limits: KeyLimits, estimate: TokenEstimate, now: number): LimitRefusal | undefined {
  const over: LimitRefusal[] = [];
  if (limits.maxParallel !== null && counters.inFlight >= limits.maxParallel) over.push({ kind: "in-flight", limit: limits.maxParallel });
  const requestsWait = counters.requests?.waitMs(1, now) ?? 0;
  if (requestsWait > 0) over.push({ kind: "requests", limit: counters.requests!.capacity, waitMs: requestsWait });
  const tokensWait = counters.tokens?.waitMs(estimate.total, now) ?? 0;
  if (tokensWait > 0) over.push({ kind: "tokens", limit: counters.tokens!.capacity, waitMs: tokensWait, estimate, left: counters.tokens!.available(now) });
  return over.sort((a, b) => retryMsOf(b) - retryMsOf(a))[0];
}

function rateHeaders(counters: KeyCounters, now: number): Record<string, string> {
  const headers: Record<string, string> = {};
  const state = (bucket: KeyCounters["requests"]) => bucket && { limit: bucket.capacity, remaining: bucket.available(now), resetMs: bucket.fullInMs(now) };
  addRateHeaders(headers, "requests", state(counters.requests));
  addRateHeaders(headers, "tokens", state(counters.tokens));
  return headers;
}
