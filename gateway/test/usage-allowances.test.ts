/** Each key against its limits (the last minute, the UTC day and month, 429s over the period) and tokens per hour, from rows written directly, at a fixed clock. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SvcClient } from "@svc/client";
import { NO_LIMITS, type ApiKey, type KeyAllowance } from "@svc/contracts";
import { openGatewayDb } from "../src/db/connection";
import { usage } from "../src/db/schema";
import { hourlyFrom } from "../src/usage/hourly";
import { usageReport } from "../src/usage/service";
import { UsageStore } from "../src/usage/store";

const home = mkdtempSync(join(tmpdir(), "svc-usage-allowances-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const NOW = new Date("2026-03-15T10:30:00.000Z");
const db = openGatewayDb(home);
const store = new UsageStore(db, 90);
const noServices = { services: { list: async () => [] } } as unknown as SvcClient;

function apiKey(id: string, name: string, limits: Partial<ApiKey["limits"]> = {}): ApiKey {
  return { id, name, prefix: "svc-k-xxxx", models: null, createdAt: "2026-01-01T00:00:00.000Z", expiresAt: null, lastUsedAt: null, expired: false, limits: { ...NO_LIMITS, ...limits }, tier: "default", weight: 1 };
}
const KEYS = [apiKey("k-alice", "alice", { dailyTokens: 1000, monthlyTokens: 5000, requestsPerMinute: 60, tokensPerMinute: 100 }), apiKey("k-carol", "carol", { maxParallel: 2 })];

function row(at: string, caller: string, keyId: string | null, status: number, prompt: number | null, completion: number | null) {
  return { at, keyId, caller, endpoint: "/v1/chat/completions", model: "owner/m", serviceId: "s1", serviceName: "llama", status, end: "complete", latencyMs: 5, promptTokens: prompt, completionTokens: completion };
}

db.insert(usage)
  .values([
    // alice: the last minute, earlier today, earlier this month, last month.
    row("2026-03-15T10:29:50.000Z", "alice", "k-alice", 200, 10, 5),
    row("2026-03-15T10:29:55.000Z", "alice", "k-alice", 429, null, null),
    row("2026-03-15T01:00:00.000Z", "alice", "k-alice", 200, 100, 50),
    row("2026-03-02T08:00:00.000Z", "alice", "k-alice", 200, 1000, 0),
    row("2026-02-28T23:59:59.999Z", "alice", "k-alice", 200, 4, 3),
    row("2026-02-28T12:00:00.000Z", "alice", "k-alice", 429, null, null),
    // bob's key was removed since: his usage stays under his name.
    row("2026-03-15T02:10:00.000Z", "bob", "k-bob", 200, 20, 20),
    row("2026-03-15T02:50:00.000Z", "bob", "k-bob", 200, 1, 1),
    // The svc token and an anonymous caller (debug mode); an error counts as a request, without tokens.
    row("2026-03-15T10:29:58.000Z", "svc-token", null, 500, null, null),
    row("2026-03-10T09:00:00.000Z", "anonymous", null, 200, 2, 2),
    // Just before the day's window of the hourly series (from 2026-03-14T11:00Z).
    row("2026-03-14T10:59:59.999Z", "alice", "k-alice", 200, 8, 8),
  ])
  .run();

const byName = (keys: KeyAllowance[]) => Object.fromEntries(keys.map((key) => [key.name, key]));

describe("each key against its limits", () => {
  test("the last minute, the UTC day and the calendar month, 429s not counted as requests", async () => {
    const report = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, { since: "7d" }, NOW);
    expect(report.at).toBe(NOW.toISOString());
    const keys = byName(report.keys);
    expect(keys.alice).toEqual({
      name: "alice",
      keyId: "k-alice",
      kind: "key",
      limits: KEYS[0].limits,
      lastMinute: { requests: 1, tokens: 15 },
      today: { requests: 2, tokens: 165 },
      month: { requests: 4, tokens: 1181 },
      refused429: 1,
    });
    expect(keys.bob).toMatchObject({ kind: "removed", keyId: "k-bob", limits: NO_LIMITS, lastMinute: { requests: 0, tokens: 0 }, today: { requests: 2, tokens: 42 }, month: { requests: 2, tokens: 42 } });
    expect(keys["svc-token"]).toMatchObject({ kind: "token", keyId: null, lastMinute: { requests: 1, tokens: 0 }, today: { requests: 1, tokens: 0 } });
    expect(keys.anonymous).toMatchObject({ kind: "anonymous", today: { requests: 0, tokens: 0 }, month: { requests: 1, tokens: 4 } });
    // A key that has not been used yet is listed with its limits.
    expect(keys.carol).toMatchObject({ kind: "key", limits: { ...NO_LIMITS, maxParallel: 2 }, month: { requests: 0, tokens: 0 }, refused429: 0 });
    expect(report.keys.map((key) => key.name)).toEqual(["alice", "carol", "bob", "svc-token", "anonymous"]);
  });

  test("429s are counted over the report's period; the budgets' windows do not follow it", async () => {
    const report = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, { since: "30d" }, NOW);
    expect(byName(report.keys).alice).toMatchObject({ refused429: 2, month: { requests: 4, tokens: 1181 } });
    const lastHour = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, { since: "1h" }, NOW);
    expect(byName(lastHour.keys).alice).toMatchObject({ refused429: 1, today: { requests: 2, tokens: 165 } });
  });

  test("at the turn of a month, the last minute reaches into the previous one and the month starts afresh", async () => {
    const report = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, {}, new Date("2026-03-01T00:00:30.000Z"));
    expect(byName(report.keys).alice).toMatchObject({ lastMinute: { requests: 1, tokens: 7 }, today: { requests: 0, tokens: 0 }, month: { requests: 0, tokens: 0 } });
  });
});

describe("tokens per hour per key", () => {
  test("the last day: 24 hours up to the current one, each hour and caller summed", async () => {
    expect(hourlyFrom(NOW, "day").toISOString()).toBe("2026-03-14T11:00:00.000Z");
    const { hourly } = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, {}, NOW);
    expect(hourly.window).toBe("day");
    expect(hourly.from).toBe("2026-03-14T11:00:00.000Z");
    expect(hourly.hours).toEqual([
      { hour: "2026-03-15T01:00:00.000Z", key: "alice", requests: 1, tokens: 150 },
      { hour: "2026-03-15T02:00:00.000Z", key: "bob", requests: 2, tokens: 42 },
      { hour: "2026-03-15T10:00:00.000Z", key: "alice", requests: 1, tokens: 15 },
      { hour: "2026-03-15T10:00:00.000Z", key: "svc-token", requests: 1, tokens: 0 },
    ]);
  });

  test("the last week: 168 hours, whatever the report's period", async () => {
    const { hourly } = await usageReport({ store, keys: { list: () => KEYS }, client: noServices }, { since: "1h", hours: "week" }, NOW);
    expect(hourly.from).toBe("2026-03-08T11:00:00.000Z");
    expect(hourly.hours.map((hour) => `${hour.hour.slice(5, 13)} ${hour.key} ${hour.tokens}`)).toEqual([
      "03-10T09 anonymous 4",
      "03-14T10 alice 16",
      "03-15T01 alice 150",
      "03-15T02 bob 42",
      "03-15T10 alice 15",
      "03-15T10 svc-token 0",
    ]);
  });
});
