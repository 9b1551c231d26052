/**
 * Fair share of a saturated model through the gateway's /v1, on a real tiny-model service taking
 * 2 requests at once (`--parallel 2`) and keys from `svc key create` (debug off): key f keeps 32
 * streamed chats in flight, and key i's one chat is let go ahead of f's waiting ones; the queue in
 * `svc details`, /metrics and the service's page; a client that goes away leaves the queue; past
 * the queue time limit (2 s here) a request is refused with 429 and Retry-After. Every assertion is
 * about order and counts, none about how fast: a loaded machine only makes the queue longer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { QueueReport } from "@svc/contracts";
import { eventually, metricSum, parseMetricsText, runSvc, startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const TOKEN = "fair-share-test-token-0123456789";
let tiny: TinyApp;
let serviceId = "";
const keys = { f: "", i: "", a: "" };

interface Sent {
  /** performance.now() when its answer's headers came: when it left the queue and the service began. */
  startedAt?: number;
  status?: number;
  retryAfter?: string | null;
  text?: string;
  done: Promise<void>;
}

/** A streamed chat, read to its end. */
function chat(key: string, signal?: AbortSignal): Sent {
  const sent: Sent = { done: Promise.resolve() };
  sent.done = (async () => {
    const answer = await fetch(`${tiny.app.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, stream: true, max_tokens: 64, messages: [{ role: "user", content: "Tell me a story." }] }),
      signal,
    });
    sent.startedAt = performance.now();
    sent.status = answer.status;
    sent.retryAfter = answer.headers.get("retry-after");
    sent.text = await answer.text();
  })().catch(() => undefined);
  return sent;
}

/** Keeps `count` streamed chats of `key` in flight until stopped: each one over is replaced at once. */
function keepInFlight(key: string, count: number) {
  const all: Sent[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const sent = chat(key);
      all.push(sent);
      await sent.done;
    }
  };
  const loops = Array.from({ length: count }, loop);
  return {
    all,
    /** Those sent and not begun: waiting in the queue. */
    waiting: () => all.filter((sent) => sent.startedAt === undefined),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const queues = () => tiny.client.queues.report({ model: TEXT_MODEL });
const waitingOf = (report: QueueReport, key: string) => report.models[0]?.keys.filter((entry) => entry.key === key).reduce((sum, entry) => sum + entry.waiting, 0) ?? 0;
async function metrics() {
  const response = await fetch(`${tiny.app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return parseMetricsText(await response.text());
}

/** Every answer is a whole stream or a 429 with Retry-After: none lost. */
function expectAnsweredOrRefused(all: Sent[]) {
  for (const sent of all) {
    if (sent.status === 429) expect(Number(sent.retryAfter)).toBeGreaterThanOrEqual(1);
    else {
      expect(sent.status).toBe(200);
      expect(sent.text!.trimEnd()).toEndWith("data: [DONE]");
    }
  }
}

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN, SVC_FAIR_SHARE_QUEUE_SECONDS: "2" } });
  serviceId = await tiny.serving(["text-generation", TEXT_MODEL, "--parallel", "2", "--name", "shared"]);
  for (const name of Object.keys(keys) as Array<keyof typeof keys>) {
    const created = await runSvc(["key", "create", "--name", name, "--json"], tiny.env);
    expect(created.code).toBe(0);
    keys[name] = (JSON.parse(created.stdout) as { key: string }).key;
  }
}, 600_000);

afterAll(async () => {
  await tiny?.cleanup();
});

describe("a model saturated by one key", () => {
  test("key f keeps 32 streamed chats in flight; key i's one chat goes ahead of f's waiting ones; svc details, /metrics and the page show f's queue", async () => {
    const load = keepInFlight(keys.f, 32);
    try {
      await eventually(async () => waitingOf(await queues(), "f") >= 10, 60_000, "f's requests waiting");
      const details = await runSvc(["details", serviceId], tiny.env);
      expect(details.code).toBe(0);
      expect(details.stdout).toMatch(/Queue \(fair share, at most 2 s, 256 a key\): \d+ waiting for svc-tiny\/tiny-llama-gguf, \d+ in flight of 2 at once/);
      expect(details.stdout).toMatch(/^f\s+default\s+1\s+\d+\s+[\d.]+ s$/m);
      const scraped = await metrics();
      expect(metricSum(scraped, "svc_v1_queue_waiting", { model: TEXT_MODEL })).toBeGreaterThan(0);
      expect(metricSum(scraped, "svc_v1_queue_waiting_by_key", { model: TEXT_MODEL, key: "f", tier: "default" })).toBeGreaterThan(0);
      const card = await fetch(`${tiny.app.url}/services/${serviceId}/queue`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(card.status).toBe(200);
      expect(await card.text()).toMatch(/<tr><td>f<\/td><td>default<\/td><td>1<\/td><td>\d+<\/td>/);

      // f's requests waiting when i's is sent: with fair share, nearly all of them begin after it (in turn: i's is next); first come first served would begin none after it.
      const ahead = load.waiting();
      const mine = chat(keys.i);
      await mine.done;
      expect(mine.status).toBe(200);
      expect(mine.text!.trimEnd()).toEndWith("data: [DONE]");
      await Promise.all(ahead.map((sent) => sent.done));
      const servedAfter = ahead.filter((sent) => sent.status === 200 && sent.startedAt! > mine.startedAt!).length;
      const served = ahead.filter((sent) => sent.status === 200).length;
      expect(ahead.length).toBeGreaterThanOrEqual(5);
      expect(servedAfter).toBeGreaterThanOrEqual(Math.floor(served / 2));
    } finally {
      await load.stop();
    }
    expectAnsweredOrRefused(load.all);
  }, 180_000);

  test("a client that goes away leaves the queue at once: its key's gauge drops, and what it left is never answered", async () => {
    const load = keepInFlight(keys.f, 32);
    const controller = new AbortController();
    const leaving = Array.from({ length: 12 }, () => chat(keys.a, controller.signal));
    try {
      await eventually(async () => metricSum(await metrics(), "svc_v1_queue_waiting_by_key", { key: "a" }) >= 3, 60_000, "a's requests waiting", 10);
      controller.abort();
      await Promise.all(leaving.map((sent) => sent.done));
      await eventually(async () => metricSum(await metrics(), "svc_v1_queue_waiting_by_key", { key: "a" }) === 0, 5_000, "a's gauge to drop");
      expect(waitingOf(await queues(), "a")).toBe(0);
    } finally {
      await load.stop();
    }
    // Those that left while waiting were never answered: fewer of a's requests were recorded than it sent.
    const usage = await runSvc(["usage", "--json", "--since", "1h"], tiny.env);
    const answered = (JSON.parse(usage.stdout) as { groups: Array<{ group: string; requests: number }> }).groups.find((group) => group.group === "a")?.requests ?? 0;
    expect(answered).toBeLessThan(leaving.length);
  }, 180_000);

  test("past the queue time limit a request is refused with 429, rate_limit_exceeded and Retry-After; the rest are answered; the refusals are counted", async () => {
    const burst = Array.from({ length: 200 }, () => chat(keys.f));
    await Promise.all(burst.map((sent) => sent.done));
    const refused = burst.filter((sent) => sent.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectAnsweredOrRefused(burst);
    const body = JSON.parse(refused[0]!.text!) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toContain(`The model '${TEXT_MODEL}' is saturated`);
    expect(body.error.message).toContain("waited 2 s");
    const report = await queues();
    expect(report.models[0]!.refused.timeout).toBeGreaterThanOrEqual(refused.length);
    expect(metricSum(await metrics(), "svc_v1_queue_refused_total", { model: TEXT_MODEL, reason: "timeout" })).toBeGreaterThanOrEqual(refused.length);
  }, 180_000);
});
