/**
 * Keys' limits, budgets and tiers through the real gateway (debug off), with keys from `svc key
 * create` and `svc key update`: each limit's 429 with OpenAI's body, Retry-After and x-ratelimit-*
 * headers, tiers, bad input (CLI and API), the Batch API refused at creation once a budget is spent,
 * and a budget and the minute's counters surviving `svc start` again. The upstream is a fake
 * OpenAI-compatible server in this process, added with `svc endpoint add`: no container needed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiKey } from "@svc/contracts";
import { runSvc, startFakeOpenAi, startSvc, type FakeOpenAi, type RunningSvc } from "@svc/testing";

const TOKEN = "v1-limits-test-token-0123456789";
const MODEL = "lab/chat-model";
let app: RunningSvc;
let upstream: FakeOpenAi;

const env = () => ({ SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: TOKEN });
const svc = (args: string[]) => runSvc(args, env());
const api = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...init.headers } });

/** `svc key create --name NAME ...`: the key it prints once. */
async function createKey(name: string, args: string[] = []): Promise<string> {
  const created = await svc(["key", "create", "--name", name, ...args]);
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  return created.stdout.split("\n")[0].trim();
}

interface Answer {
  status: number;
  headers: Headers;
  error?: { message: string; type: string; param: string | null; code: string };
}

/** A chat through /v1 with `key`, read to its end. */
async function chat(key: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(`${app.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "x".repeat(40) }], ...extra }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, error: response.status >= 400 ? JSON.parse(text).error : undefined };
}

beforeAll(async () => {
  upstream = startFakeOpenAi(MODEL);
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  const added = await svc(["endpoint", "add", "lab", `${upstream.url}/v1`]);
  expect(added.code).toBe(0);
  expect(added.stdout).toContain("HEALTHY");
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
  upstream?.stop();
});

describe("svc key create and update", () => {
  test("limits, tier and weight at create; svc key ls shows them; update changes them with the same secret", async () => {
    const key = await createKey("alice", ["--rpm", "1", "--tpm", "20000", "--max-parallel", "4", "--daily-tokens", "2000000", "--tier", "flex", "--weight", "3"]);
    const listed = await svc(["key", "ls"]);
    expect(listed.code).toBe(0);
    const row = listed.stdout.split("\n").find((line) => line.startsWith("alice"))!;
    expect(row).toContain("1 rpm, 20K tpm, 4 at once, 2M/day");
    expect(row).toContain("flex ×3");
    expect((await chat(key)).status).toBe(200);
    expect((await chat(key)).status).toBe(429);

    const updated = await svc(["key", "update", "alice", "--rpm", "none", "--daily-tokens", "none", "--monthly-tokens", "50000000", "--tier", "default", "--json"]);
    expect(updated.code).toBe(0);
    expect((JSON.parse(updated.stdout) as ApiKey).limits).toEqual({ requestsPerMinute: null, tokensPerMinute: 20_000, maxParallel: 4, dailyTokens: null, monthlyTokens: 50_000_000 });
    // The same key works on, its new limits from its next request on.
    for (let i = 0; i < 3; i++) expect((await chat(key)).status).toBe(200);
  });

  test("bad input: a negative, non-integer or missing limit, an unknown tier, an unknown key: non-zero exit naming the option, nothing changed", async () => {
    for (const [args, says] of [
      [["--rpm=-1"], "--rpm \"-1\": give a whole number from 1 to 1000000"],
      [["--daily-tokens", "1.5"], "--daily-tokens \"1.5\""],
      [["--tpm"], "--tpm <n>` value is missing"],
      [["--tier", "gold"], "--tier \"gold\": use priority, default, flex."],
      [["--weight", "0"], "--weight \"0\": give a whole number from 1 to 100"],
    ] as Array<[string[], string]>) {
      const refused = await svc(["key", "create", "--name", "bob", ...args]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(says);
    }
    expect((await svc(["key", "ls"])).stdout).not.toContain("bob");
    const unknown = await svc(["key", "update", "nobody", "--rpm", "5"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("No API key has the id or name 'nobody'");
    const nothing = await svc(["key", "update", "alice"]);
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain("say what to change");
  });

  test("the API: PATCH /api/keys/{ref} refuses a bad field with a 400 naming it, an unknown key with a 404; nothing half-changed", async () => {
    const before = ((await (await api("/api/keys")).json()) as ApiKey[]).find((key) => key.name === "alice")!;
    for (const body of [{ requestsPerMinute: -1 }, { tokensPerMinute: 2.5 }, { tier: "gold" }, { requestsPerMinute: 10, weight: 0 }, { maxParallel: "4" }]) {
      const refused = await api("/api/keys/alice", { method: "PATCH", body: JSON.stringify(body) });
      expect(refused.status).toBe(400);
      const error = (await refused.json()) as { error: string; message: string; details?: { field: string } };
      expect(error.error).toBe("invalid_request");
      expect(Object.keys(body)).toContain(error.details!.field);
    }
    const missing = await api("/api/keys/nobody", { method: "PATCH", body: JSON.stringify({ requestsPerMinute: 5 }) });
    expect(missing.status).toBe(404);
    const after = ((await (await api("/api/keys")).json()) as ApiKey[]).find((key) => key.name === "alice")!;
    expect(after).toEqual(before);
    const created = await api("/api/keys", { method: "POST", body: JSON.stringify({ name: "carol", dailyTokens: 0 }) });
    expect(created.status).toBe(400);
  });
});

describe("each limit through /v1", () => {
  test("requests a minute: x-ratelimit-* on each answer, then 429 rate_limit_exceeded with Retry-After", async () => {
    const key = await createKey("rpm", ["--rpm", "2"]);
    const first = await chat(key);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit-requests")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining-requests")).toBe("1");
    expect(first.headers.get("x-ratelimit-reset-requests")).toMatch(/^\d+(\.\d+)?s$/);
    expect(first.headers.get("x-ratelimit-limit-tokens")).toBeNull();
    const streamed = await chat(key, { stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    const refused = await chat(key);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "rate_limit_exceeded", type: "requests", param: null });
    expect(refused.error!.message).toMatch(/^Rate limit of 2 requests per minute reached for key 'rpm'; try again in \d+ s\.$/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(Number(refused.headers.get("retry-after-ms"))).toBeLessThanOrEqual(retryAfter * 1000);
    expect(refused.headers.get("x-ratelimit-remaining-requests")).toBe("0");
  });

  test("tokens a minute: held to prompt + max_tokens, given back what the answer did not use; too large is refused saying so", async () => {
    const key = await createKey("tpm", ["--tpm", "300"]);
    // 40 characters (10 tokens) and up to 190 completion tokens: 200 of 300, of which the answer uses 10.
    const first = await chat(key, { max_tokens: 190 });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit-tokens")).toBe("300");
    expect(Number(first.headers.get("x-ratelimit-remaining-tokens"))).toBeLessThan(150);
    for (let i = 0; i < 3; i++) expect((await chat(key, { max_tokens: 190 })).status).toBe(200);
    const tooLarge = await chat(key, { max_tokens: 1000 });
    expect(tooLarge.status).toBe(429);
    expect(tooLarge.error).toMatchObject({ code: "rate_limit_exceeded", type: "tokens" });
    expect(tooLarge.error!.message).toContain("more than its limit of 300 tokens per minute");
  });

  test("requests in flight: a second at once is refused while the first is held", async () => {
    const key = await createKey("parallel", ["--max-parallel", "1"]);
    upstream.holdAnswers(true);
    const first = chat(key);
    try {
      while (upstream.heldCount() === 0) await Bun.sleep(10);
      const second = await chat(key);
      expect(second.status).toBe(429);
      expect(second.error!.message).toBe("Limit of 1 requests in flight at once reached for key 'parallel'; try again when one of them has ended.");
      expect(second.headers.get("retry-after")).toBe("1");
    } finally {
      upstream.holdAnswers(false);
    }
    expect((await first).status).toBe(200);
    expect((await chat(key)).status).toBe(200);
  });

  test("a daily budget: spent after its tokens, insufficient_quota until 00:00 UTC; a batch is refused at creation", async () => {
    const key = await createKey("daily", ["--daily-tokens", "20"]);
    expect((await chat(key)).status).toBe(200);
    expect((await chat(key)).status).toBe(200);
    const spent = await chat(key);
    expect(spent.status).toBe(429);
    expect(spent.error).toMatchObject({ code: "insufficient_quota", type: "insufficient_quota" });
    expect(spent.error!.message).toMatch(/^Daily token budget of 20 spent for key 'daily' \(20 used\); it renews at 00:00 UTC, in /);
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    const form = new FormData();
    form.set("purpose", "batch");
    form.set("file", new Blob([`${JSON.stringify({ custom_id: "a", method: "POST", url: "/v1/chat/completions", body: { model: MODEL, messages: [{ role: "user", content: "hi" }] } })}\n`]), "in.jsonl");
    const file = await fetch(`${app.url}/v1/files`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    expect(file.status).toBe(200);
    const { id } = (await file.json()) as { id: string };
    const batch = await fetch(`${app.url}/v1/batches`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ input_file_id: id, endpoint: "/v1/chat/completions", completion_window: "24h" }),
    });
    expect(batch.status).toBe(429);
    expect(Number(batch.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await batch.json()) as { error: { code: string } }).error.code).toBe("insufficient_quota");
  });

  test("tiers: the key's tier caps what a request may ask for, naming service_tier and the key's tier", async () => {
    const key = await createKey("flex-only", ["--tier", "flex"]);
    expect((await chat(key, { service_tier: "flex" })).status).toBe(200);
    expect((await chat(key, { service_tier: "auto" })).status).toBe(200);
    const above = await chat(key, { service_tier: "default" });
    expect(above.status).toBe(400);
    expect(above.error).toMatchObject({ code: "invalid_request", param: "service_tier" });
    expect(above.error!.message).toContain("above this key's tier 'flex'");
    expect((await chat(key, { service_tier: "scale" })).status).toBe(400);
    // The svc token is not limited and may ask for any tier.
    expect((await chat(TOKEN, { service_tier: "priority" })).status).toBe(200);
  });
});

test("a budget and the minute's counters survive svc start again; a monthly budget with short usage retention is warned about", async () => {
  const budget = await createKey("restart-budget", ["--monthly-tokens", "20"]);
  // One request a minute: the restart has a minute before that request is back, not to be raced by a slow start.
  const rate = await createKey("restart-rate", ["--rpm", "1"]);
  for (let i = 0; i < 2; i++) expect((await chat(budget)).status).toBe(200);
  expect((await chat(rate)).status).toBe(200);
  expect(await app.stop()).toBe(0);
  app = await startSvc({ home: app.home, env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN, SVC_USAGE_RETENTION_DAYS: "7" } });

  const spent = await chat(budget);
  expect(spent.status).toBe(429);
  expect(spent.error!.message).toContain("Monthly token budget of 20 spent for key 'restart-budget' (20 used)");
  const limited = await chat(rate);
  expect(limited.status).toBe(429);
  expect(limited.error!.code).toBe("rate_limit_exceeded");
  expect(readFileSync(join(app.home, "logs", "gateway.log"), "utf8")).toMatch(/\[warn\] usage is kept 7 days .* monthly budgets of .*restart-budget.* count only the last 7 days/);
}, 120_000);
