/** The Keys and Usage pages, in process: create (the key shown once), list, remove, escape; the usage chart. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "@svc/platform";
import { createGateway } from "../src/app";

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
});
