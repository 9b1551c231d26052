/**
 * Keys' limits through the gateway's /v1 router, with keys from KeyRing against a stand-in runtime:
 * every routed endpoint counts, rates and budgets settled with the usage the answers report, requests
 * in flight, tiers reaching the wait stage, headers on every answer, limits changed by KeyRing.update,
 * and the counters rebuilt from the usage rows as after a restart.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CreateKeyRequest, ServiceRoute, ServiceTier } from "@svc/contracts";
import { startFakeOpenAi } from "@svc/testing";
import { openGatewayDb } from "../src/db/connection";
import { KeyRing } from "../src/keys/service";
import { v1Authenticator } from "../src/keys/v1-auth";
import { KeyAdmission } from "../src/openai/admission/key-admission";
import { readRecordedUsage } from "../src/openai/admission/recorded-usage";
import { ServiceCatalog } from "../src/openai/catalog";
import { OpenAiRouter } from "../src/openai/service";
import type { SlotGate } from "../src/openai/slot-gate";
import { ResponsesApi } from "../src/responses/service";
import { ResponseStore } from "../src/responses/store";
import { UsageStore } from "../src/usage/store";

/** Every answer reports 7 prompt and 3 completion tokens. */
const upstream = startFakeOpenAi("owner/a");
const home = mkdtempSync(join(tmpdir(), "svc-v1-limits-"));
afterAll(() => {
  upstream.stop();
  rmSync(home, { recursive: true, force: true });
});

const route = (model: string, task: ServiceRoute["task"] = "text-generation"): ServiceRoute => ({
  id: `id-${model.replace("/", "-")}`,
  name: model.replace("/", "-"),
  task,
  model,
  revision: "0123456789abcdef",
  profile: "default",
  engine: "docker",
  server: "svc",
  status: "HEALTHY",
  url: upstream.url,
  apiKey: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  onDemand: false,
  waits: false,
});

const db = openGatewayDb(home);
const keys = new KeyRing(db);
const usage = new UsageStore(db, 90);
const catalog = new ServiceCatalog(async () => [route("owner/a"), route("owner/speech", "speech-recognition")]);
const tiers: ServiceTier[] = [];
/** The wait stage sees the tier each request was admitted in. */
const slots: SlotGate = { wait: (_repo, _services, _caller, tier) => void tiers.push(tier) };
const TOKEN = "the-svc-token-0123456789";

function gateway(admission: KeyAdmission) {
  return new OpenAiRouter(
    catalog,
    v1Authenticator(keys, TOKEN),
    (outcome) => {
      usage.record(outcome);
      admission.recorded(outcome);
    },
    { admission, slots, responses: new ResponsesApi(new ResponseStore(db, 90)) },
  );
}
let router = gateway(new KeyAdmission());

const newKey = (request: CreateKeyRequest) => keys.create(request).key;
const post = (key: string, body: unknown, path = "/v1/chat/completions") =>
  router.handle(new Request(`http://localhost:8000${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) }));
const chat = (key: string, extra: Record<string, unknown> = {}) => post(key, { model: "owner/a", messages: [{ role: "user", content: "x".repeat(40) }], ...extra });
/** Sends and reads the whole answer (the request is settled once its body is over). */
async function answered(response: Promise<Response>) {
  const answer = await response;
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, text, error: answer.status >= 400 ? (JSON.parse(text) as { error: { code: string; message: string; type: string; param: string | null } }).error : undefined };
}

describe("requests a minute", () => {
  test("every routed endpoint counts: chat, completions, embeddings, responses, transcriptions; then a 429 with Retry-After", async () => {
    const key = newKey({ name: "every-route", requestsPerMinute: 5 });
    const form = new FormData();
    form.set("model", "owner/speech");
    form.set("file", new Blob([new Uint8Array(16)]), "a.wav");
    const sent = [
      await answered(chat(key)),
      await answered(post(key, { model: "owner/a", prompt: "hello" }, "/v1/completions")),
      await answered(post(key, { model: "owner/a", input: "hello" }, "/v1/embeddings")),
      await answered(post(key, { model: "owner/a", input: "hello" }, "/v1/responses")),
      await answered(router.handle(new Request("http://localhost:8000/v1/audio/transcriptions", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }))),
    ];
    expect(sent.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(sent.map((answer) => answer.headers.get("x-ratelimit-remaining-requests"))).toEqual(["4", "3", "2", "1", "0"]);
    expect(sent[0].headers.get("x-ratelimit-limit-requests")).toBe("5");
    expect(sent[0].headers.get("x-ratelimit-limit-tokens")).toBeNull();
    const refused = await answered(chat(key));
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "rate_limit_exceeded", type: "requests", param: null });
    expect(refused.error!.message).toMatch(/^Rate limit of 5 requests per minute reached for key 'every-route'; try again in \d+ s\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after-ms"))).toBeGreaterThan(0);
    // The refusal is recorded as usage for the key.
    expect(usage.rows(new Date(0)).filter((row) => row.caller === "every-route").map((row) => row.status)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test("the svc token and a key without limits get no x-ratelimit headers and are never refused", async () => {
    const key = newKey({ name: "free" });
    for (const caller of [TOKEN, key]) {
      for (let i = 0; i < 8; i++) {
        const answer = await answered(chat(caller));
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-ratelimit-limit-requests")).toBeNull();
      }
    }
  });

  test("a refusal after admission (an unknown model) carries the key's headers too", async () => {
    const key = newKey({ name: "unknown-model", requestsPerMinute: 10 });
    const missing = await answered(post(key, { model: "owner/none", messages: [] }));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-ratelimit-remaining-requests")).toBe("9");
  });
});

describe("tokens", () => {
  test("tokens a minute: held to prompt + max_tokens, settled with the usage the answer reports (streamed too)", async () => {
    const key = newKey({ name: "tpm", tokensPerMinute: 300 });
    // A prompt of 40 characters (10 tokens) and up to 190 completion tokens: 200 of 300.
    const first = await answered(chat(key, { max_tokens: 190 }));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit-tokens")).toBe("300");
    expect(Number(first.headers.get("x-ratelimit-remaining-tokens"))).toBeLessThan(110);
    // It used 10: the 190 it did not use are given back, so another 200 fit (without that, not for 20 s).
    const streamed = await answered(chat(key, { max_tokens: 190, stream: true }));
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain("[DONE]");
    const third = await answered(chat(key, { max_tokens: 190 }));
    expect(third.status).toBe(200);
    const tooLarge = await answered(chat(key, { max_tokens: 400 }));
    expect(tooLarge.status).toBe(429);
    expect(tooLarge.error!.type).toBe("tokens");
    expect(tooLarge.error!.message).toContain("Request too large for key 'tpm'");
  });

  test("a daily budget: each answer's 10 tokens count; spent after 5, insufficient_quota naming it", async () => {
    const key = newKey({ name: "daily", dailyTokens: 50 });
    for (let i = 0; i < 5; i++) expect((await answered(chat(key))).status).toBe(200);
    const spent = await answered(chat(key));
    expect(spent.status).toBe(429);
    expect(spent.error!.code).toBe("insufficient_quota");
    expect(spent.error!.message).toMatch(/^Daily token budget of 50 spent for key 'daily' \(50 used\); it renews at 00:00 UTC, in /);
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("requests in flight", () => {
  test("one at once: a second is refused while the first is held, and let in once it is answered", async () => {
    const key = newKey({ name: "parallel", maxParallel: 1 });
    upstream.holdAnswers(true);
    const first = chat(key);
    while (upstream.heldCount() === 0) await Bun.sleep(5);
    const second = await answered(chat(key));
    expect(second.status).toBe(429);
    expect(second.error!.message).toBe("Limit of 1 requests in flight at once reached for key 'parallel'; try again when one of them has ended.");
    expect(second.headers.get("retry-after")).toBe("1");
    upstream.holdAnswers(false);
    expect((await answered(first)).status).toBe(200);
    expect((await answered(chat(key))).status).toBe(200);
  });

  test("a caller that goes away frees its place", async () => {
    const key = newKey({ name: "gone", maxParallel: 1 });
    upstream.holdAnswers(true);
    const abort = new AbortController();
    const first = router.handle(
      new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ model: "owner/a", messages: [] }), signal: abort.signal }),
    );
    while (upstream.heldCount() === 0) await Bun.sleep(5);
    abort.abort();
    await first.catch(() => undefined);
    upstream.holdAnswers(false);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await answered(chat(key))).status;
      if (status !== 200) await Bun.sleep(20);
    }
    expect(status).toBe(200);
  });
});

test("tiers: the key's by default, a lower one when asked; a higher one is a 400 naming service_tier and the key's tier", async () => {
  const key = newKey({ name: "tiered", tier: "default" });
  tiers.length = 0;
  expect((await answered(chat(key))).status).toBe(200);
  expect((await answered(chat(key, { service_tier: "flex" }))).status).toBe(200);
  expect((await answered(chat(key, { service_tier: "auto" }))).status).toBe(200);
  expect(tiers).toEqual(["default", "flex", "default"]);
  const above = await answered(chat(key, { service_tier: "priority" }));
  expect(above.status).toBe(400);
  expect(above.error).toMatchObject({ code: "invalid_request", param: "service_tier" });
  expect(above.error!.message).toContain("above this key's tier 'default'");
  expect((await answered(chat(key, { service_tier: "scale" }))).status).toBe(400);
});

test("KeyRing.update changes a key's limits from its next request on, with the same secret", async () => {
  const key = newKey({ name: "changed", requestsPerMinute: 1 });
  expect((await answered(chat(key))).status).toBe(200);
  expect((await answered(chat(key))).status).toBe(429);
  keys.update("changed", { requestsPerMinute: 3 });
  expect((await answered(chat(key))).status).toBe(200);
  keys.update("changed", { requestsPerMinute: null, tier: "flex" });
  for (let i = 0; i < 5; i++) expect((await answered(chat(key))).status).toBe(200);
});

test("after a restart: budgets and the last minute's requests, read back from the usage rows", async () => {
  const budget = newKey({ name: "restart-budget", dailyTokens: 30 });
  const rate = newKey({ name: "restart-rate", requestsPerMinute: 2 });
  for (let i = 0; i < 3; i++) expect((await answered(chat(budget))).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await answered(chat(rate))).status).toBe(200);
  usage.flush();
  const restarted = new KeyAdmission();
  restarted.restore(readRecordedUsage(db, Date.now()), keys.policies());
  router = gateway(restarted);
  const spent = await answered(chat(budget));
  expect(spent.status).toBe(429);
  expect(spent.error!.message).toContain("Daily token budget of 30 spent for key 'restart-budget' (30 used)");
  const limited = await answered(chat(rate));
  expect(limited.status).toBe(429);
  expect(limited.error!.code).toBe("rate_limit_exceeded");
});
