/** The Keys and Usage pages, in process: create (the key shown once), list, remove, escape; the usage charts and each key against its limits. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_LIMITS } from "@svc/contracts";
import { homeLayout, loadSettings } from "@svc/platform";
import { spent, usageReportWith } from "@svc/testing";
import { usagePage } from "@svc/ui";
import { createGateway } from "../src/app";
import { openGatewayDb } from "../src/db/connection";
import { usage } from "../src/db/schema";

const home = mkdtempSync(join(tmpdir(), "svc-key-pages-"));
const nowhere = "http://127.0.0.1:9";
const gateway = createGateway({
  settings: loadSettings({ SVC_HOME_DIR: home, HOME: home }),
  internalSecret: "internal-secret-".padEnd(43, "x"),
  upstreams: { "profile-svc": nowhere, "model-svc": nowhere, "orchestrator-svc": nowhere },
  authToken: undefined,
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ORIGIN = "http://localhost:8000";
const get = async (path: string) => {
  const response = await gateway.handle(new Request(`${ORIGIN}${path}`));
  return { status: response.status, html: await response.text() };
};
const post = async (path: string, form: Record<string, string>) => {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN }, body: new URLSearchParams(form).toString() }),
  );
  return { status: response.status, html: await response.text(), location: response.headers.get("location") };
};

describe("keys page", () => {
  test("creating a key shows it once; the list shows its prefix only; the nav marks Keys", async () => {
    expect((await get("/keys")).html).toContain("No API keys yet");
    const created = await post("/keys", { name: "alice", models: "owner/a, owner/b", expires: "30d" });
    expect(created.status).toBe(201);
    const key = created.html.match(/<code id="new-key">(svc-k-[^<]+)<\/code>/)?.[1];
    expect(key).toBeDefined();
    const list = await get("/keys");
    expect(list.html).toMatch(/<a href="\/keys" aria-current="page">Keys<\/a>/);
    expect(list.html).toContain("owner/a, owner/b");
    expect(list.html).toContain(`${key!.slice(0, 10)}…`);
    expect(list.html).not.toContain(key!);
    const v1 = await gateway.handle(new Request(`${ORIGIN}/v1/models`, { headers: { authorization: `Bearer ${key}` } }));
    // The key is accepted (orchestrator-svc is not running here, so /v1 has nothing to list).
    expect(v1.status).toBe(503);
  });

  test("a bad form keeps the values and says what to fix, escaped; a taken name is a 409", async () => {
    const bad = await post("/keys", { name: "<b>x</b>", models: "not-a-repo" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Name: 1 to 64 letters");
    expect(bad.html).not.toContain("<b>x</b>");
    expect(bad.html).toContain('value="&lt;b&gt;x&lt;/b&gt;"');
    expect((await post("/keys", { name: "bob", models: "owner/x/y" })).html).toContain("is not a repo id");
    expect((await post("/keys", { name: "alice" })).status).toBe(409);
  });

  test("remove takes the key off the list and out of use", async () => {
    const created = await post("/keys", { name: "carol" });
    const key = created.html.match(/<code id="new-key">(svc-k-[^<]+)<\/code>/)![1];
    const id = (await get("/keys")).html.match(/action="\/keys\/([^"]+)\/remove"[^>]*><button[^>]*aria-label="Remove the key carol"/)![1];
    const removed = await post(`/keys/${id}/remove`, {});
    expect(removed.status).toBe(303);
    expect(removed.location).toBe("/keys?removed=carol");
    expect((await get("/keys?removed=carol")).html).toContain("Removed the key carol.");
    const refused = await gateway.handle(new Request(`${ORIGIN}/v1/models`, { headers: { authorization: `Bearer ${key}` } }));
    expect(refused.status).toBe(401);
  });
});

describe("keys page: limits, tier and weight", () => {
  test("set at create and shown in the list; a bad limit or tier is a 400 naming the field, nothing made", async () => {
    const created = await post("/keys", { name: "dave", requestsPerMinute: "60", tokensPerMinute: "20000", maxParallel: "", dailyTokens: "2000000", monthlyTokens: "", tier: "flex", weight: "2" });
    expect(created.status).toBe(201);
    const list = (await get("/keys")).html;
    expect(list).toContain("60 rpm, 20K tpm, 2M/day");
    expect(list).toContain("flex (weight 2)");
    const negative = await post("/keys", { name: "erin", requestsPerMinute: "-1" });
    expect(negative.status).toBe(400);
    expect(negative.html).toContain("Requests a minute: &#39;-1&#39; is not a whole number from 1 to 1000000.");
    expect(negative.html).toContain('value="-1"');
    expect((await post("/keys", { name: "erin", dailyTokens: "1.5" })).html).toContain("Tokens a day (UTC): &#39;1.5&#39;");
    expect((await post("/keys", { name: "erin", tier: "gold" })).html).toContain("Tier: &#39;gold&#39; is not one of priority, default, flex.");
    expect((await get("/keys")).html).not.toContain("erin");
  });

  test("the edit form starts with the key's values; saving changes them (an emptied limit is removed); a bad value changes nothing", async () => {
    const id = (await get("/keys")).html.match(/href="\/keys\?edit=([^"#]+)#edit-key" aria-label="Change the key dave"/)![1];
    const form = (await get(`/keys?edit=${id}`)).html;
    expect(form).toContain("Change the key dave");
    expect(form).toContain('name="requestsPerMinute" inputmode="numeric" value="60"');
    const bad = await post(`/keys/${id}/update`, { requestsPerMinute: "10", weight: "0", tier: "flex" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Weight: &#39;0&#39; is not a whole number from 1 to 100.");
    expect((await get("/keys")).html).toContain("60 rpm, 20K tpm, 2M/day");
    const saved = await post(`/keys/${id}/update`, { requestsPerMinute: "10", tokensPerMinute: "", dailyTokens: "2000000", monthlyTokens: "5000000", tier: "default", weight: "1", models: "", expires: "" });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/keys?updated=dave");
    const after = (await get("/keys?updated=dave")).html;
    expect(after).toContain("Changed the key dave.");
    expect(after).toContain("10 rpm, 2M/day, 5M/month");
    expect((await get("/keys?edit=nobody")).status).toBe(404);
    expect((await post("/keys/nobody/update", { requestsPerMinute: "1" })).status).toBe(404);
  });
});

describe("usage page", () => {
  test("shows the period's totals and a per-day chart, also while orchestrator-svc is down", async () => {
    expect((await get("/usage")).html).toContain("No requests through /v1 in this period.");
    for (let i = 0; i < 2; i++) {
      const chat = await gateway.handle(new Request(`${ORIGIN}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "owner/a", messages: [] }) }));
      // orchestrator-svc is not running here: nothing to route to, and the request is recorded as such.
      expect(chat.status).toBe(503);
    }
    const page = await get("/usage?since=2d&by=model");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<a href="\/usage" aria-current="page">Usage<\/a>/);
    expect(page.html).toContain('<option value="model" selected>');
    expect(page.html).toContain("2 requests (2 errors)");
    expect(page.html).toContain('<svg class="chart"');
    expect(page.html).toContain(`<title>${new Date().toISOString().slice(0, 10)}: 2 requests</title>`);
    expect(page.html).toContain("<tr><td>owner/a</td><td>2</td><td>2</td>");
  });

  test("each key's spending and 429s, removed keys under their name; tokens per hour per key, the last day or week", async () => {
    const created = await post("/keys", { name: "dora" });
    const dora = created.html.match(/<code id="new-key">(svc-k-[^<]+)<\/code>/)![1];
    const doraId = (await get("/keys")).html.match(/action="\/keys\/([^"]+)\/remove"[^>]*><button[^>]*aria-label="Remove the key dora"/)![1];
    expect((await gateway.handle(new Request(`${ORIGIN}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${dora}`, "content-type": "application/json" }, body: JSON.stringify({ model: "owner/a", messages: [] }) }))).status).toBe(503);
    // Rows as a served model and the admission stage would leave them: tokens, and a 429.
    const db = openGatewayDb(homeLayout(home).dataDir("gateway"));
    const at = new Date().toISOString();
    const row = { at, caller: "dora", keyId: doraId, endpoint: "/v1/chat/completions", model: "owner/a", serviceId: "s", serviceName: "a", end: "complete", latencyMs: 3 };
    db.insert(usage)
      .values([
        { ...row, status: 200, promptTokens: 30, completionTokens: 12 },
        { ...row, status: 429, promptTokens: null, completionTokens: null },
        { ...row, caller: "gone", keyId: "k-removed", status: 200, promptTokens: 5, completionTokens: 5 },
      ])
      .run();
    db.$client.close();

    const page = await get("/usage?since=1d&by=key");
    expect(page.status).toBe(200);
    const keysTable = page.html.match(/<table class="allowances" id="usage-keys">[\s\S]*?<\/table>/)![0];
    const doraRow = keysTable.match(/<tr>\s*<th scope="row">dora[\s\S]*?<\/tr>/)![0];
    // Last minute (the 503 counts as a request), today, this month, 429s: no limits, so no bars.
    expect(doraRow.replace(/\s+/g, " ")).toContain('<td><span class="spent">2 requests</span><span class="spent">42 tokens</span></td> <td><span class="spent">42 tokens</span><small>2 requests</small></td> <td><span class="spent">42 tokens</span><small>2 requests</small></td> <td>1</td>');
    expect(keysTable.replace(/\s+/g, " ")).toContain('<th scope="row">gone<small>removed key</small></th> <td><span class="spent">1 request</span><span class="spent">10 tokens</span></td>');
    expect(keysTable).toContain('<th scope="row">alice</th>');
    expect(doraRow).not.toContain("<meter");

    const hour = `${at.slice(0, 13).replace("T", " ")}:00 UTC`;
    expect(page.html).toContain('<svg class="chart" id="hour-chart"');
    expect(page.html).toContain(`<title>${hour}, dora: 42 tokens, `);
    expect(page.html).toMatch(/<span class="swatch k0"><\/span>dora \(42\)<span class="swatch k1"><\/span>gone \(10\)/);
    expect(page.html).toContain('<a href="/usage?since=1d&amp;by=key&amp;hours=day" aria-current="true">last day</a>');
    const hourRects = (html: string) => html.match(/<svg class="chart" id="hour-chart"[\s\S]*?<\/svg>/)![0];
    expect(hourRects(page.html).match(/<text /g)).toHaveLength(8);

    const week = await get("/usage?since=1d&by=key&hours=week");
    expect(week.html).toContain('<a href="/usage?since=1d&amp;by=key&amp;hours=week" aria-current="true">last week</a>');
    expect(week.html).toContain('<input type="hidden" name="hours" value="week" />');
    expect(week.html).toContain(`<title>${hour}, dora: 42 tokens, `);
    // A label at each UTC midnight of the 168 hours: 7 of them.
    expect(hourRects(week.html).match(/<text /g)).toHaveLength(7);
    // An unknown window is the day's, not an error.
    expect((await get("/usage?hours=month")).html).toContain('aria-current="true">last day</a>');
  });

  test("a bar per limit: what was spent against it, its share, past the limit too", () => {
    const report = usageReportWith({
      keys: [
        {
          name: "erin",
          keyId: "k-erin",
          kind: "key",
          limits: { requestsPerMinute: 60, tokensPerMinute: 1000, maxParallel: 4, dailyTokens: 10_000, monthlyTokens: 200_000 },
          lastMinute: spent(3, 1200),
          today: spent(40, 2500),
          month: spent(300, 150_000),
          refused429: 7,
        },
        { name: "svc-token", keyId: null, kind: "token", limits: NO_LIMITS, lastMinute: spent(0, 0), today: spent(1, 0), month: spent(1, 0), refused429: 0 },
      ],
    });
    const html = usagePage({ report, session: false, since: "7d" });
    expect(html).toContain('<meter min="0" max="60" value="3" low="45" high="54" optimum="0" aria-label="erin: 3 of 60 requests in the last minute (5%)"></meter>3 / 60 requests (5%)');
    // Past the limit the bar is full and the share says by how much.
    expect(html).toContain('<meter min="0" max="1000" value="1000" low="750" high="900" optimum="0" aria-label="erin: 1,200 of 1,000 tokens in the last minute (120%)"></meter>1,200 / 1,000 tokens (120%)');
    expect(html).toContain('aria-label="erin: 2,500 of 10,000 tokens today (25%)"');
    expect(html).toContain('aria-label="erin: 150,000 of 200,000 tokens this month (75%)"');
    expect(html).toContain('<th scope="row">erin<small>4 at once</small></th>');
    expect(html).toMatch(/<th scope="row">svc-token<small>svc token, UI<\/small><\/th>\s*<td><span class="spent">0 requests<\/span>/);
    expect(html.match(/<meter /g)).toHaveLength(4);
    expect(html).toContain("No tokens through /v1 in the last day.");
  });
});
