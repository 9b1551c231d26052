/**
 * The services, launch, details and playground pages through the real app, without a browser and
 * without starting any service: plain form posts (no JavaScript), the API's messages next to the
 * field they are about, escaping, dry-run previews, the 204 answer of an unchanged poll.
 * (tests/ui/ drives the same pages in Chromium with real services.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { ServiceRecord } from "@svc/contracts";
import { serviceDetailsPage, servicesTable } from "@svc/ui";
import { startSvc, tempHome, type RunningSvc, commitOf, files, formPost, localProfileHome, queueReportOf } from "@svc/testing";

let app: RunningSvc;
let base: string;
const MODEL = "acme/tiny-gguf";

beforeAll(async () => {
  base = tempHome("svc-service-pages-");
  const svcHome = localProfileHome(base, [{ repo: MODEL, commit: commitOf("g"), files: files.gguf() }]);
  app = await startSvc({ home: svcHome });
  await new SvcClient({ baseUrl: app.url }).models.refresh();
});
afterAll(async () => {
  await app?.cleanup();
  rmSync(base, { recursive: true, force: true });
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => formPost(app.url, fields, headers);
const launch = { task: "text-generation", model: MODEL, profile: "default" };

test("the services page: nav, filters, an empty state that says what to do, a poll that answers 204 while nothing changed", async () => {
  const page = await fetch(`${app.url}/services`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<a href="/services" aria-current="page">Services</a>');
  expect(html.indexOf('href="/services"')).toBeLessThan(html.indexOf('href="/profiles"'));
  expect(html).toContain("No services yet");
  expect(html).toContain('<option value="default"');
  const version = html.match(/hx-get="\/services\/table\?v=([a-z0-9]+)"/)![1];
  expect(html).toContain('hx-trigger="every 1s"');
  expect((await fetch(`${app.url}/services/table?v=${version}`)).status).toBe(204);
  const changed = await fetch(`${app.url}/services/table?v=stale`);
  expect(changed.status).toBe(200);
  const fragment = await changed.text();
  expect(fragment).toStartWith('<div id="services-table"');
  expect(fragment).not.toContain("<html");

  const filtered = await (await fetch(`${app.url}/services?status=FAILED&q=%3Cb%3E`)).text();
  expect(filtered).toContain("No services match these filters.");
  expect(filtered).toContain('value="&lt;b&gt;"');
  expect(filtered).toContain('<option value="FAILED" selected>');
});

test("the launch form: registry choices, API messages next to their field (escaped), a dry-run preview", async () => {
  const page = await (await fetch(`${app.url}/services/new`)).text();
  expect(page).toContain(`<option value="${MODEL}" data-task="text-generation"`);
  expect(page).toContain(`data-repo="${MODEL}" data-profile="default"`);

  const hostile = await fetch(`${app.url}/services/new`, form({ ...launch, action: "launch", name: "<script>alert(1)</script>" }));
  expect(hostile.status).toBe(400);
  const hostileHtml = await hostile.text();
  expect(hostileHtml).toContain('id="err-name"');
  expect(hostileHtml).toContain("--name &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;");
  expect(hostileHtml).not.toContain("<script>alert(1)</script>");
  expect(hostileHtml).toMatch(/id="f-name"[^>]*aria-invalid="true"/);

  const unknownProfile = await fetch(`${app.url}/services/new`, form({ ...launch, profile: "elsewhere", action: "preview" }));
  expect(unknownProfile.status).toBe(404);
  expect(await unknownProfile.text()).toContain('<p class="field-error" id="err-profile">No profile named &quot;elsewhere&quot;');

  const notNumber = await fetch(`${app.url}/services/new`, form({ ...launch, action: "launch", mem: "lots" }));
  expect(notNumber.status).toBe(400);
  expect(await notNumber.text()).toContain('Memory &quot;lots&quot; is not a whole number');

  const wrongTask = await fetch(`${app.url}/services/new`, form({ ...launch, task: "speech-recognition", action: "preview" }));
  expect(wrongTask.status).toBe(400);
  expect(await wrongTask.text()).toMatch(/<p class="field-error" id="err-model">acme\/tiny-gguf is a text-generation model/);

  // htmx does not swap error answers: a boosted form gets its error page as 200.
  const boosted = await fetch(`${app.url}/services/new`, form({ ...launch, action: "launch", time: "soon" }, { "hx-request": "true" }));
  expect(boosted.status).toBe(200);
  expect(await boosted.text()).toContain('id="err-time"');

  const preview = await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", engineArgs: "--ctx-size\n512\n", apiKey: "k-1" }));
  expect(preview.status).toBe(200);
  const previewHtml = await preview.text();
  // One option per line, each line but the last continued with a backslash.
  expect(previewHtml).toContain('<pre class="block" id="preview-script">docker run \\\n  --detach \\\n  --init \\\n  --name svc-');
  expect(previewHtml).toMatch(/\n  svc-text-generation:\S+ \\\n  --model \S+ \\\n/);
  expect(previewHtml).toContain("\n  --ctx-size 512</pre>");
  // Warnings name the form's fields, not the CLI's options.
  expect(previewHtml).toContain("No revision chosen: using ");
  expect(previewHtml).toContain("Choose it under “Revision” for reproducible runs.");
  expect(previewHtml).not.toContain("--revision");
  // The key is not echoed back into the page.
  expect(previewHtml).not.toContain('value="k-1"');
  // A GPU engine and its GPUs from the form: the plan above the script, SGLang's own options in it; a misspelt engine option next to its field.
  const gpu = await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", engine: "sglang", gres: "2" }));
  const gpuHtml = await gpu.text();
  expect(gpuHtml).toContain("1 × 2 GPUs as asked");
  expect(gpuHtml).toContain("sglang.launch_server");
  expect(gpuHtml).toContain("--tp-size 2");
  const misspelt = await (await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", engine: "vllm", gres: "1", engineArgs: "--max-modle-len\n4096" }))).text();
  expect(misspelt).toContain("Did you mean --max-model-len");
  // An adapter the registry lacks: the refusal next to the adapters field.
  const adapter = await (await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", adapters: "acme/no-such-lora\n" }))).text();
  expect(adapter).toContain('id="err-adapters"');
  expect(adapter).toContain("--adapter acme/no-such-lora is not in the registry of profile default");
  const badEngine = await (await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", engine: "tgi" }))).text();
  expect(badEngine).toContain("choose vLLM or SGLang");
  expect(await new SvcClient({ baseUrl: app.url }).services.list({ all: true })).toEqual([]);
});

test("unknown services, empty playground: pages that say what to do next", async () => {
  const missing = await fetch(`${app.url}/services/00000000-dead-beef-0000-000000000000`);
  expect(missing.status).toBe(404);
  const missingHtml = await missing.text();
  expect(missingHtml).toContain("Service not found");
  expect(missingHtml).toContain("svc ls --all");
  expect((await fetch(`${app.url}/services/nope/stop`, form({}))).status).toBe(404);
  expect((await fetch(`${app.url}/services/nope/explode`)).status).toBe(404);

  const playground = await (await fetch(`${app.url}/playground`)).text();
  expect(playground).toContain("No service is running.");
  expect(playground).toContain('href="/services/new"');
  const asset = await fetch(`${app.url}/assets/svc.js`);
  expect(asset.status).toBe(200);
  expect(await asset.text()).toContain("data-log-stream");
});

test("the launch form takes the new options: the preview shows them and warns, naming each, about those that do nothing here", async () => {
  const folder = join(base, "home");
  const preview = await fetch(
    `${app.url}/services/new`,
    form({ ...launch, action: "preview", account: "proj-1", qos: "high", nodelist: "node[1-2]", mounts: `${folder}\n`, gracePeriod: "90", image: "my-llama:1" }),
  );
  expect(preview.status).toBe(200);
  const html = await preview.text();
  expect(html).toContain('<p class="warning">“Account”, “QOS” and “Nodes to run on” do nothing on local profile default: they are Slurm job options');
  expect(html).toContain(`--mount type=bind,source=${folder},target=${folder},readonly`);
  expect(html).toContain("--label svc.grace-period=90");
  expect(html).toContain("  my-llama:1 \\\n  --model ");

  const hostile = await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", account: "a;id" }));
  expect(hostile.status).toBe(400);
  expect(await hostile.text()).toContain('<p class="field-error" id="err-account">--account &quot;a;id&quot;');
  const system = await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", mounts: "/etc" }));
  expect(system.status).toBe(400);
  expect(await system.text()).toContain('<p class="field-error" id="err-mounts">--mount /etc');
  const grace = await fetch(`${app.url}/services/new`, form({ ...launch, action: "preview", gracePeriod: "soon" }));
  expect(await grace.text()).toContain('Grace period &quot;soon&quot; is not a whole number');
});

const record = (id: string, status: ServiceRecord["status"]): ServiceRecord => ({
    id, name: status.toLowerCase(), image: "text_generation", task: "text-generation", model: MODEL, revision: "r", profile: "default", status, reason: null,
    host: null, port: null, url: null, engine: "docker", runtime: "img", handle: null, apiKeySet: false, job: {}, engineArgs: [], createdBy: "me",
    policies: { idleStop: null, idleStopSeconds: null, onDemand: false, startTimeout: "15 min", startTimeoutSeconds: 900, renew: false, renewBefore: null, renewBeforeSeconds: null },
    lastRequestAt: null, endsAt: null, successor: null,
    createdAt: "2026-11-22T00:00:00.000Z", updatedAt: "2026-11-22T00:00:00.000Z",
});

test("the services table dims ended services, which come after the live ones", () => {
  const table = servicesTable([record("11111111-0000-4000-8000-000000000001", "HEALTHY"), record("11111111-0000-4000-8000-000000000002", "FAILED")], {}, { total: 2, version: "v" }).value;
  expect(table).toContain('<tr data-service-id="11111111-0000-4000-8000-000000000001" >');
  expect(table).toContain('<tr data-service-id="11111111-0000-4000-8000-000000000002" class="ended">');
});

test("a service's LoRA adapters: counted in the services table, named on its page", () => {
  const service = { ...record("11111111-0000-4000-8000-000000000004", "HEALTHY"), adapters: ["acme/lora-a", "acme/lora-b"] };
  const table = servicesTable([service], {}, { total: 1, version: "v" }).value;
  expect(table).toContain('<small title="acme/lora-a, acme/lora-b">+2 LoRA adapters</small>');
  const page = serviceDetailsPage({ service: { ...service, phases: { queued: null, starting: null, ready: null }, events: [] }, origin: "http://gw.test", tokenRequired: true, logs: { text: "" }, session: false, version: "v" });
  expect(page).toContain("acme/lora-a, acme/lora-b (each a model of /v1)");
});

test("a service's page shows its svc URL and code examples only while it can answer: live, or stopped but on-demand", () => {
  const id = "11111111-0000-4000-8000-000000000003";
  const page = (status: ServiceRecord["status"], onDemand = false) => {
    const base = record(id, status);
    const service = { ...base, policies: { ...base.policies, onDemand }, phases: { queued: null, starting: null, ready: null }, events: [] };
    return serviceDetailsPage({ service, origin: "http://gw.test", tokenRequired: true, logs: { text: "" }, session: false, version: "v", queues: queueReportOf(base.model, []) });
  };
  const url = `<code id="endpoint-url">http://gw.test/proxy/${id}/v1</code>`;

  const healthy = page("HEALTHY");
  expect(healthy).toContain(url);
  expect(healthy).toContain('id="example-curl"');
  expect(healthy).not.toContain('id="endpoint-stopped"');
  // Its model's fair-share queue, between the status and the examples.
  expect(healthy.indexOf('id="service-queue"')).toBeGreaterThan(healthy.indexOf('id="logs-card"'));
  expect(healthy.indexOf('id="service-queue"')).toBeLessThan(healthy.indexOf('id="examples"'));

  const stopped = page("STOPPED");
  expect(stopped).not.toContain("/proxy/");
  expect(stopped).not.toContain('id="examples"');
  expect(stopped).not.toContain('id="service-queue"');
  expect(stopped).toContain('id="endpoint-stopped">none while the service is STOPPED: it does not answer requests.');
  expect(stopped).toContain(`<code>svc restart ${id.slice(0, 13)}</code>`);
  expect(stopped).toContain('id="action-restart"');

  const deployment = "22222222-0000-4000-8000-000000000001";
  const replica = serviceDetailsPage({ service: { ...record(id, "STOPPED"), deployment, phases: { queued: null, starting: null, ready: null }, events: [] }, origin: "http://gw.test", tokenRequired: true, logs: { text: "" }, session: false, version: "v" });
  expect(replica).toContain(`It is a replica: <a href="/deployments/${deployment}">its deployment</a> starts it again when it needs it`);
  expect(replica).not.toContain('id="action-restart"');
  expect(replica).not.toContain("svc restart");

  const onDemand = page("STOPPED", true);
  expect(onDemand).toContain(url);
  expect(onDemand).toContain('id="example-curl"');
  expect(onDemand).toContain("the first request starts it again");
  expect(onDemand).not.toContain('id="endpoint-stopped"');
});
