/** The admit stage's parts on a fake clock: token buckets, UTC periods, the prompt estimate, OpenAI's rate headers and 429s. */
import { describe, expect, test } from "bun:test";
import { estimateTokens } from "../src/openai/admission/estimate";
import { addRateHeaders, resetText } from "../src/openai/admission/rate-headers";
import { limitRefusal } from "../src/openai/admission/refusal";
import { requestTier } from "../src/openai/admission/service-tier";
import { SpendLedger } from "../src/openai/admission/spend-ledger";
import { TokenBucket } from "../src/openai/admission/token-bucket";
import { nextUtcDay, nextUtcMonth, utcDayStart, utcMonthStart } from "../src/openai/admission/utc-periods";
import { jsonBytes, type V1Body } from "../src/openai/request-body";

const T0 = Date.parse("2026-03-31T23:59:30.000Z");
const json = (body: Record<string, unknown>): V1Body => ({ model: "m", bytes: jsonBytes(body), stream: false, json: body });

describe("token bucket", () => {
  test("full at first, refills evenly over a minute, never above capacity", () => {
    const bucket = new TokenBucket(2, T0);
    expect(bucket.available(T0)).toBe(2);
    bucket.take(1, T0);
    bucket.take(1, T0);
    expect(bucket.waitMs(1, T0)).toBe(30_000);
    expect(bucket.available(T0 + 15_000)).toBeCloseTo(0.5);
    expect(bucket.waitMs(1, T0 + 30_000)).toBe(0);
    expect(bucket.fullInMs(T0 + 30_000)).toBe(30_000);
    expect(bucket.available(T0 + 600_000)).toBe(2);
  });

  test("more than its capacity is never available; a debt is paid by refilling", () => {
    const bucket = new TokenBucket(600, T0);
    expect(bucket.waitMs(601, T0)).toBe(Infinity);
    bucket.take(900, T0);
    expect(bucket.available(T0)).toBe(-300);
    // 10 tokens a second: the debt of 300 and one token take 30.1 s.
    expect(bucket.waitMs(1, T0)).toBeCloseTo(30_100);
    bucket.take(-2000, T0);
    expect(bucket.available(T0)).toBe(600);
  });

  test("resized, what was used stays used", () => {
    const bucket = new TokenBucket(10, T0);
    bucket.take(4, T0);
    expect(bucket.resized(20, T0).available(T0)).toBe(16);
    expect(bucket.resized(3, T0).available(T0)).toBe(-1);
  });
});

test("UTC days and calendar months", () => {
  expect(new Date(utcDayStart(T0)).toISOString()).toBe("2026-03-31T00:00:00.000Z");
  expect(new Date(nextUtcDay(T0)).toISOString()).toBe("2026-04-01T00:00:00.000Z");
  expect(new Date(utcMonthStart(T0)).toISOString()).toBe("2026-03-01T00:00:00.000Z");
  expect(new Date(nextUtcMonth(Date.parse("2026-12-15T10:00:00Z"))).toISOString()).toBe("2027-01-01T00:00:00.000Z");
});

describe("spend ledger", () => {
  test("counts a day and a month, each starting again when its period does", () => {
    const ledger = new SpendLedger();
    ledger.spent("k", 100, T0);
    ledger.spent("k", 50, T0 + 1000);
    expect(ledger.used("k", T0 + 1000)).toEqual({ day: 150, month: 150, reserved: 0 });
    // 30 s later it is April the 1st: a new day and a new month.
    expect(ledger.used("k", T0 + 31_000)).toEqual({ day: 0, month: 0, reserved: 0 });
    ledger.spent("k", 7, T0 + 31_000);
    ledger.spent("k", 9, Date.parse("2026-04-02T10:00:00Z"));
    expect(ledger.used("k", Date.parse("2026-04-02T10:00:01Z"))).toEqual({ day: 9, month: 16, reserved: 0 });
  });

  test("what requests in flight hold is reserved until released", () => {
    const ledger = new SpendLedger();
    ledger.reserve("k", 40, T0);
    ledger.reserve("k", 10, T0);
    ledger.release("k", 40, T0);
    expect(ledger.used("k", T0).reserved).toBe(10);
  });
});

describe("estimate", () => {
  test("chat: the messages' text at four characters a token, plus the completion asked for (× n)", () => {
    const body = json({ messages: [{ role: "user", content: "x".repeat(40) }, { role: "user", content: [{ type: "text", text: "y".repeat(8) }, { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(4000)}` } }] }], max_tokens: 50, n: 2 });
    expect(estimateTokens(body)).toEqual({ prompt: 12, completion: 100, total: 112 });
    expect(estimateTokens(json({ messages: [], max_completion_tokens: 7, max_tokens: 99 })).completion).toBe(7);
  });

  test("completions (text or token ids), embeddings, responses (instructions, input items, max_output_tokens)", () => {
    expect(estimateTokens(json({ prompt: ["abcd", "efgh"], max_tokens: 1 })).total).toBe(3);
    expect(estimateTokens(json({ prompt: [1, 2, 3, 4, 5] })).prompt).toBe(5);
    expect(estimateTokens(json({ input: "x".repeat(400) }))).toEqual({ prompt: 100, completion: 0, total: 100 });
    const responses = json({ instructions: "x".repeat(8), input: [{ role: "user", content: [{ type: "input_text", text: "y".repeat(8) }] }, { type: "function_call_output", output: "z".repeat(4) }], max_output_tokens: 10 });
    expect(estimateTokens(responses)).toEqual({ prompt: 5, completion: 10, total: 15 });
  });

  test("a transcription (multipart) counts by request: no tokens", () => {
    expect(estimateTokens({ model: "m", bytes: new ArrayBuffer(10), stream: false, json: undefined }).total).toBe(0);
  });
});

test("reset durations as OpenAI writes them", () => {
  expect(resetText(120)).toBe("120ms");
  expect(resetText(1000)).toBe("1s");
  expect(resetText(28_500)).toBe("28.5s");
  expect(resetText(360_000)).toBe("6m0s");
  expect(resetText(3_723_000)).toBe("1h2m3s");
  const headers: Record<string, string> = {};
  addRateHeaders(headers, "requests", { limit: 2, remaining: 0.97, resetMs: 59_000 });
  addRateHeaders(headers, "tokens", undefined);
  expect(headers).toEqual({ "x-ratelimit-limit-requests": "2", "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "59s" });
});

describe("refusals", () => {
  test("a rate limit: 429 rate_limit_exceeded naming the limit and when it frees, Retry-After in whole seconds and in ms", async () => {
    const answer = limitRefusal({ kind: "requests", limit: 2, waitMs: 27_300 }, "alice", { "x-ratelimit-limit-requests": "2" });
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("28");
    expect(answer.headers.get("retry-after-ms")).toBe("27300");
    expect(answer.headers.get("x-ratelimit-limit-requests")).toBe("2");
    expect(await answer.json()).toEqual({ error: { message: "Rate limit of 2 requests per minute reached for key 'alice'; try again in 28 s.", type: "requests", param: null, code: "rate_limit_exceeded" } });
  });

  test("a spent budget: insufficient_quota until it renews; a request too large for a minute's tokens gets no Retry-After", async () => {
    const estimate = { prompt: 10, completion: 90, total: 100 };
    const spent = limitRefusal({ kind: "budget", period: "day", limit: 1000, used: 1000, reserved: 0, estimate, renewsAt: nextUtcDay(T0), waitMs: 30_000 }, "bob", {});
    expect(spent.headers.get("retry-after")).toBe("30");
    const body = (await spent.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: "insufficient_quota", type: "insufficient_quota" });
    expect(body.error.message).toBe("Daily token budget of 1000 spent for key 'bob' (1000 used); it renews at 00:00 UTC, in 30 s.");
    const large = limitRefusal({ kind: "tokens", limit: 50, waitMs: Infinity, estimate, left: 50 }, "bob", {});
    expect(large.headers.get("retry-after")).toBeNull();
    expect(((await large.json()) as { error: { message: string } }).error.message).toContain("more than its limit of 50 tokens per minute");
  });
});

test("service_tier: auto or none is the key's; above the key's tier or unknown is a 400 naming it", async () => {
  expect(requestTier(json({}), "flex")).toBe("flex");
  expect(requestTier(json({ service_tier: "auto" }), undefined)).toBe("default");
  expect(requestTier(json({ service_tier: "flex" }), "default")).toBe("flex");
  expect(requestTier(json({ service_tier: "priority" }), undefined)).toBe("priority");
  const above = requestTier(json({ service_tier: "priority" }), "default") as Response;
  expect(above.status).toBe(400);
  expect(await above.json()).toEqual({ error: { message: "service_tier 'priority' is above this key's tier 'default': ask for default or flex, or auto (the key's).", type: "invalid_request_error", param: "service_tier", code: "invalid_request" } });
  const unknown = requestTier(json({ service_tier: "scale" }), "default") as Response;
  expect(unknown.status).toBe(400);
  expect(((await unknown.json()) as { error: { param: string } }).error.param).toBe("service_tier");
});
