/**
 * Usage a PI reads at a glance, through a real app (debug off) and the CLI: keys from `svc key
 * create` chat with a stand-in OpenAI server added with `svc endpoint add` (no containers needed),
 * which answers some requests 429; `svc usage` and GET /api/usage give each key's requests and
 * tokens in the last minute, today and this month, its 429s, a removed key under its name, and tokens
 * per hour over the last day or week. Bad input is a 400 (CLI: a usage error), never a 500.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyAllowance, UsageReport } from "@svc/contracts";
import { runSvc, startSvc, type RunningSvc } from "@svc/testing";

const TOKEN = "usage-allowances-test-token-0123456789";
const MODEL = "lab/llm";
let app: RunningSvc;
let env: Record<string, string>;
const keys: Record<string, string> = {};

/** A lab's OpenAI-compatible server: 7 + 3 tokens an answer, and a 429 for a request whose `user` is `refuse`. */
const labServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    if (new URL(request.url).pathname === "/v1/models") return Response.json({ object: "list", data: [{ id: MODEL, object: "model", owned_by: "lab" }] });
    const body = (await request.json()) as { user?: string };
    if (body.user === "refuse") return Response.json({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { status: 429, headers: { "retry-after": "1" } });
    return Response.json({ id: "c", object: "chat.completion", created: 0, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
  },
});

const svc = (args: string[]) => runSvc(args, env);
const chat = (name: string, user?: string) =>
  fetch(`${app.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${keys[name]}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "Hello" }], ...(user ? { user } : {}) }),
  });

async function usageJson(args: string[] = []): Promise<UsageReport> {
  const result = await svc(["usage", "--json", ...args]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

const entry = (report: UsageReport, name: string) => report.keys.find((key) => key.name === name) as KeyAllowance;
const tokensOf = (report: UsageReport, name: string) => report.hourly.hours.filter((hour) => hour.key === name).reduce((sum, hour) => sum + hour.tokens, 0);

let startedAt: Date;

beforeAll(async () => {
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: TOKEN };
  const added = await svc(["endpoint", "add", "lab", `http://127.0.0.1:${labServer.port}`]);
  expect(added.code).toBe(0);
  for (const name of ["pi-alice", "pi-bob", "pi-idle"]) {
    const created = await svc(["key", "create", "--name", name]);
    expect(created.code).toBe(0);
    keys[name] = created.stdout.split("\n")[0].trim();
  }
  startedAt = new Date();
  for (let i = 0; i < 3; i++) expect((await chat("pi-alice")).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await chat("pi-alice", "refuse")).status).toBe(429);
  expect((await chat("pi-bob")).status).toBe(200);
  expect((await svc(["key", "rm", "pi-bob"])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
  labServer.stop(true);
});

describe("svc usage: each key against its limits", () => {
  test("requests and tokens in the last minute, today and this month; 429s; a removed key under its name; a key not used yet", async () => {
    const report = await usageJson(["--since", "1h"]);
    const at = new Date(report.at);
    const alice = entry(report, "pi-alice");
    expect(alice).toMatchObject({ kind: "key", limits: { requestsPerMinute: null, tokensPerMinute: null, maxParallel: null, dailyTokens: null, monthlyTokens: null }, refused429: 2 });
    // The windows end at the report; the requests were made since `startedAt` (a day or month may have turned meanwhile).
    if (at.getTime() - startedAt.getTime() < 50_000) expect(alice.lastMinute).toEqual({ requests: 3, tokens: 30 });
    if (at.toISOString().slice(0, 10) === startedAt.toISOString().slice(0, 10)) expect(alice.today).toEqual({ requests: 3, tokens: 30 });
    if (at.toISOString().slice(0, 7) === startedAt.toISOString().slice(0, 7)) expect(alice.month).toEqual({ requests: 3, tokens: 30 });
    expect(entry(report, "pi-bob")).toMatchObject({ kind: "removed", refused429: 0 });
    expect(entry(report, "pi-bob").keyId).not.toBeNull();
    expect(entry(report, "pi-idle")).toMatchObject({ kind: "key", lastMinute: { requests: 0, tokens: 0 }, month: { requests: 0, tokens: 0 }, refused429: 0 });
    // The per-key totals of the period agree.
    expect(report.groups.find((group) => group.group === "pi-alice")).toMatchObject({ requests: 5, errors: 2, promptTokens: 21, completionTokens: 9 });
  });

  test("tokens per hour per key over the last day, or the last week", async () => {
    const day = await usageJson();
    expect(day.hourly.window).toBe("day");
    expect(Date.parse(day.at) - Date.parse(day.hourly.from)).toBeLessThan(24 * 3_600_000);
    expect(Date.parse(day.at) - Date.parse(day.hourly.from)).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect([tokensOf(day, "pi-alice"), tokensOf(day, "pi-bob")]).toEqual([30, 10]);
    const week = await usageJson(["--hours", "week"]);
    expect(week.hourly.window).toBe("week");
    expect(Date.parse(week.at) - Date.parse(week.hourly.from)).toBeGreaterThanOrEqual(167 * 3_600_000);
    expect(tokensOf(week, "pi-alice")).toBe(30);
  });

  test("the table: the keys' limits and 429s, and a line of tokens per hour each", async () => {
    const table = await svc(["usage", "--since", "1h"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.split("\n");
    const keysAt = lines.findIndex((line) => line.startsWith("Keys against their limits at "));
    const hoursAt = lines.findIndex((line) => line.startsWith("Tokens per hour over the last day (UTC"));
    expect(keysAt).toBeGreaterThan(0);
    expect(hoursAt).toBeGreaterThan(keysAt);
    const keysTable = lines.slice(keysAt + 1, hoursAt);
    expect(keysTable[0]).toMatch(/^KEY +REQUESTS\/MIN +TOKENS\/MIN +TOKENS TODAY +TOKENS THIS MONTH +AT ONCE +429S$/);
    // No limits set: the amounts alone, `-` for the in-flight limit, then the 429s.
    expect(keysTable.find((line) => line.startsWith("pi-alice "))).toMatch(/^pi-alice +\d+ +\d+ +\d+ +\d+ +- +2$/);
    expect(keysTable.some((line) => /^pi-bob \(removed\) /.test(line))).toBe(true);
    expect(lines.slice(hoursAt + 1).find((line) => line.startsWith("pi-alice "))).toMatch(/^pi-alice +[·▁▂▃▄▅▆▇█]{24} +30$/);
  });

  test("a window that is neither day nor week: a 400 from the API naming it, a usage error from the CLI", async () => {
    const answer = await fetch(`${app.url}/api/usage?hours=month`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain("hours");
    const cli = await svc(["usage", "--hours", "month"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("--hours month: use one of day, week.");
  });

  test("GET /api/usage gives the same report, as the API document describes it", async () => {
    const answer = await fetch(`${app.url}/api/usage?since=1h&hours=week`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    const report = (await answer.json()) as UsageReport;
    expect(entry(report, "pi-alice").refused429).toBe(2);
    expect(report.hourly.window).toBe("week");
  });
});
