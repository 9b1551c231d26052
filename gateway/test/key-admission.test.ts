/** The admit stage for API keys on a fake clock: each limit and budget, settling with real usage, tiers, callers not limited, a restart. */
import { describe, expect, test } from "bun:test";
import { NO_LIMITS, type KeyLimits, type ServiceTier } from "@svc/contracts";
import type { Admitted } from "../src/openai/admit";
import { KeyAdmission } from "../src/openai/admission/key-admission";
import type { Caller } from "../src/openai/caller";
import type { V1Outcome } from "../src/openai/outcome";
import { jsonBytes, type V1Body } from "../src/openai/request-body";

const T0 = Date.parse("2026-05-31T23:58:00.000Z");

function rig(start = T0) {
  const clock = { now: start };
  const admission = new KeyAdmission(() => clock.now);
  return { clock, admission };
}

const keyCaller = (limits: Partial<KeyLimits>, tier: ServiceTier = "default", id = "k1"): Caller => ({
  kind: "key",
  id,
  name: "alice",
  models: null,
  policy: { limits: { ...NO_LIMITS, ...limits }, tier, weight: 1 },
});
const chat = (extra: Record<string, unknown> = {}): V1Body => {
  const json = { model: "m", messages: [{ role: "user", content: "x".repeat(40) }], ...extra };
  return { model: "m", bytes: jsonBytes(json), stream: false, json };
};
const outcome = (caller: Caller, at: number, promptTokens: number, completionTokens: number, status = 200): V1Outcome => ({
  at: new Date(at),
  caller,
  endpoint: "/v1/chat/completions",
  model: "m",
  modelServed: true,
  serviceId: "s",
  serviceName: "s",
  status,
  end: "complete",
  latencyMs: 1,
  usage: { promptTokens, completionTokens },
});

const admitted = (answer: Admitted | Response): Admitted => {
  if (answer instanceof Response) throw new Error(`refused with ${answer.status}`);
  return answer;
};
const refused = async (answer: Admitted | Response) => {
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  return { status: response.status, headers: response.headers, error: ((await response.json()) as { error: { message: string; code: string; type: string } }).error };
};

describe("requests a minute", () => {
  test("2 a minute: the third waits 30 s for one to refill; headers say what is left", async () => {
    const { clock, admission } = rig();
    const alice = keyCaller({ requestsPerMinute: 2 });
    const first = admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    expect(first.headers).toEqual({ "x-ratelimit-limit-requests": "2", "x-ratelimit-remaining-requests": "1", "x-ratelimit-reset-requests": "30s" });
    admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    clock.now += 2000;
    const third = await refused(admission.admit(alice, "/v1/chat/completions", chat()));
    expect(third.status).toBe(429);
    expect(third.error).toMatchObject({ code: "rate_limit_exceeded", message: "Rate limit of 2 requests per minute reached for key 'alice'; try again in 28 s." });
    expect(third.headers.get("retry-after")).toBe("28");
    expect(third.headers.get("retry-after-ms")).toBe("28000");
    expect(third.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    clock.now += 28_000;
    admitted(admission.admit(alice, "/v1/chat/completions", chat()));
  });
});

describe("tokens a minute", () => {
  test("held to the estimate before, settled with the real usage after: a refund frees tokens at once", async () => {
    const { clock, admission } = rig();
    const alice = keyCaller({ tokensPerMinute: 300 });
    // 40 characters: a prompt of 10, and up to 190 completion tokens.
    const first = admitted(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 190 })));
    expect(first.headers["x-ratelimit-remaining-tokens"]).toBe("100");
    const second = await refused(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 190 })));
    expect(second.error.message).toContain("Rate limit of 300 tokens per minute reached for key 'alice': this request may use 200 tokens (prompt about 10, completion up to 190) and 100 are left; try again in 20 s.");
    expect(second.error.type).toBe("tokens");
    first.settle(outcome(alice, clock.now, 10, 5));
    admitted(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 190 })));
  });

  test("a request that used more than its estimate is charged the difference", async () => {
    const { clock, admission } = rig();
    const alice = keyCaller({ tokensPerMinute: 600 });
    const first = admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    first.settle(outcome(alice, clock.now, 10, 1190));
    // 600 - 1200 = -600: a minute until the bucket holds anything again.
    const next = await refused(admission.admit(alice, "/v1/chat/completions", chat()));
    expect(next.headers.get("retry-after")).toBe("61");
  });

  test("larger than the limit itself: refused without Retry-After, saying to ask for less", async () => {
    const { admission } = rig();
    const answer = await refused(admission.admit(keyCaller({ tokensPerMinute: 100 }), "/v1/chat/completions", chat({ max_tokens: 500 })));
    expect(answer.headers.get("retry-after")).toBeNull();
    expect(answer.error.message).toContain("Request too large for key 'alice'");
  });
});

describe("requests in flight", () => {
  test("counted from admission to settling, a caller that went away included", async () => {
    const { admission } = rig();
    const alice = keyCaller({ maxParallel: 1 });
    const first = admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    const second = await refused(admission.admit(alice, "/v1/embeddings", chat()));
    expect(second.error.message).toBe("Limit of 1 requests in flight at once reached for key 'alice'; try again when one of them has ended.");
    expect(second.headers.get("retry-after")).toBe("1");
    first.settle(null);
    first.settle(null);
    const third = admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    expect((admission.admit(alice, "/v1/chat/completions", chat()) as Response).status).toBe(429);
    third.settle(null);
  });
});

describe("budgets", () => {
  test("a daily budget counts what usage records; spent, insufficient_quota until 00:00 UTC; the next day starts afresh", async () => {
    const { clock, admission } = rig();
    const alice = keyCaller({ dailyTokens: 100 });
    const first = admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    admission.recorded(outcome(alice, clock.now, 60, 40));
    first.settle(outcome(alice, clock.now, 60, 40));
    const spent = await refused(admission.admit(alice, "/v1/chat/completions", chat()));
    expect(spent.error).toMatchObject({ code: "insufficient_quota", message: "Daily token budget of 100 spent for key 'alice' (100 used); it renews at 00:00 UTC, in 2 min." });
    expect(spent.headers.get("retry-after")).toBe("120");
    expect(admission.spentBudget(alice)?.status).toBe(429);
    clock.now += 120_000;
    admitted(admission.admit(alice, "/v1/chat/completions", chat()));
    expect(admission.spentBudget(alice)).toBeUndefined();
  });

  test("a monthly budget holds what requests in flight may use; a request larger than what is left is refused", async () => {
    const { clock, admission } = rig(Date.parse("2026-05-10T12:00:00Z"));
    const alice = keyCaller({ monthlyTokens: 1000 });
    admission.recorded(outcome(alice, clock.now, 300, 300));
    const inFlight = admitted(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 290 })));
    const larger = await refused(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 100 })));
    expect(larger.error.code).toBe("insufficient_quota");
    expect(larger.error.message).toBe(
      "Monthly token budget of 1000 for key 'alice' has 100 tokens left and this request may use 110 tokens (prompt about 10, completion up to 100); ask for fewer completion tokens (max_tokens), or wait: it renews at 2026-06-01 00:00 UTC, in 21 d 12 h.",
    );
    inFlight.settle(outcome(alice, clock.now, 10, 10));
    admission.recorded(outcome(alice, clock.now, 10, 10));
    admitted(admission.admit(alice, "/v1/chat/completions", chat({ max_tokens: 100 })));
  });

  test("Batch API lines count (recorded for the key without its policy); other keys are not touched", async () => {
    const { clock, admission } = rig();
    const alice = keyCaller({ dailyTokens: 50 });
    admission.recorded(outcome({ kind: "key", id: "k1", name: "alice", models: null }, clock.now, 30, 30));
    expect(admission.spentBudget(alice)?.status).toBe(429);
    expect(admission.spentBudget(keyCaller({ dailyTokens: 50 }, "default", "k2"))).toBeUndefined();
  });
});

describe("tiers and callers", () => {
  test("a key's tier is its requests' default; above it is a 400; the svc token and anonymous callers are not limited", async () => {
    const { admission } = rig();
    expect(admitted(admission.admit(keyCaller({}, "flex"), "/v1/chat/completions", chat())).tier).toBe("flex");
    expect(admitted(admission.admit(keyCaller({ requestsPerMinute: 5 }, "priority"), "/v1/chat/completions", chat({ service_tier: "flex" }))).tier).toBe("flex");
    const above = await refused(admission.admit(keyCaller({}, "default"), "/v1/chat/completions", chat({ service_tier: "priority" })));
    expect(above.status).toBe(400);
    for (const caller of [{ kind: "token" }, { kind: "anonymous" }] as Caller[]) {
      for (let i = 0; i < 5; i++) expect(admitted(admission.admit(caller, "/v1/chat/completions", chat())).headers).toEqual({});
    }
  });

  test("a changed limit holds from the next request on, what was used of the minute kept", () => {
    const { admission } = rig();
    const two = keyCaller({ requestsPerMinute: 2 });
    admitted(admission.admit(two, "/v1/chat/completions", chat()));
    admitted(admission.admit(two, "/v1/chat/completions", chat()));
    expect(admission.admit(two, "/v1/chat/completions", chat())).toBeInstanceOf(Response);
    const five = keyCaller({ requestsPerMinute: 5 });
    expect(admitted(admission.admit(five, "/v1/chat/completions", chat())).headers["x-ratelimit-remaining-requests"]).toBe("2");
  });
});

test("after a restart: the day's and month's spend and the last minute's requests and tokens, from the usage rows", async () => {
  const { clock, admission } = rig();
  const policy = { limits: { ...NO_LIMITS, requestsPerMinute: 2, tokensPerMinute: 1000, dailyTokens: 5000 }, tier: "default" as const, weight: 1 };
  admission.restore(
    {
      today: new Map([["k1", 5000]]),
      thisMonth: new Map([["k1", 9000]]),
      lastMinute: new Map([["k1", [{ at: clock.now - 10_000, tokens: 500, counted: true }, { at: clock.now - 5000, tokens: 0, counted: false }, { at: clock.now - 1000, tokens: 400, counted: true }]]]),
    },
    [{ id: "k1", policy }],
  );
  const alice: Caller = { kind: "key", id: "k1", name: "alice", models: null, policy };
  const refusal = await refused(admission.admit(alice, "/v1/chat/completions", chat()));
  expect(refusal.error.code).toBe("insufficient_quota");
  const other: Caller = { ...alice, policy: { ...policy, limits: { ...policy.limits, dailyTokens: null } } };
  const rate = await refused(admission.admit(other, "/v1/chat/completions", chat()));
  // Two requests 10 s and 1 s ago: one refills 20 s after the older one.
  expect(rate.error.message).toBe("Rate limit of 2 requests per minute reached for key 'alice'; try again in 20 s.");
  // 1000 - 500 (10 s ago) - 400 (1 s ago), with 10 s of refill at 1000 a minute between them and since.
  expect(rate.headers.get("x-ratelimit-remaining-tokens")).toBe("266");
});
