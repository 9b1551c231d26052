/**
 * The batch jobs pages through the real app, without a browser and without running a job: the
 * empty list, the launcher, the API's refusals shown beside the field, escaping, the 204 poll.
 * (tests/app/batch.test.ts runs real jobs; tests/ui/ looks at the page in Chromium.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { commitOf, files, startSvc, tempHome, writeCachedSnapshot, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
let base: string;
const MODEL = "acme/tiny-gguf";

beforeAll(async () => {
  base = tempHome("svc-batch-pages-");
  const svcHome = join(base, "svc");
  for (const dir of [svcHome, join(base, "home", "texts"), join(base, "cache")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(svcHome, "profiles.cfg"), `[default]\nschema = local\nhome_dir = ${join(base, "home")}\ncache_dir = ${join(base, "cache")}\n`);
  writeCachedSnapshot(join(base, "cache", "models"), MODEL, commitOf("g"), files.gguf());
  app = await startSvc({ home: svcHome });
  await new SvcClient({ baseUrl: app.url }).models.refresh();
});
afterAll(async () => {
  await app?.cleanup();
  rmSync(base, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

test("the batch jobs page: nav link, an empty list that says what to do, the launcher with the registry's models, a 204 poll", async () => {
  const page = await fetch(`${app.url}/batches`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<a href="/batches" aria-current="page">Batch jobs</a>');
  expect(html).toContain("No batch jobs live or ended in the last 24 h.");
  expect(html).toContain(`<option value="${MODEL}"></option>`);
  expect(html).toContain('<option value="transcribe" selected>transcribe</option>');
  const version = html.match(/hx-get="\/batches\/table\?v=([a-z0-9]+)"/)![1];
  expect((await fetch(`${app.url}/batches/table?v=${version}`)).status).toBe(204);
  const fragment = await (await fetch(`${app.url}/batches/table?v=stale`)).text();
  expect(fragment).toStartWith('<div id="batches-table"');
});

test("the launcher: the model's tasks when it cannot serve the one chosen, folder errors beside their field, escaped", async () => {
  const wrongTask = await fetch(`${app.url}/batches`, form({ task: "transcribe", model: MODEL, inputDir: join(base, "home", "texts"), outputDir: join(base, "home", "out") }));
  expect(wrongTask.status).toBe(400);
  const wrongHtml = await wrongTask.text();
  expect(wrongHtml).toContain("cannot transcribe. Its batch tasks: chat, embed, openai.");
  expect(wrongHtml).toMatch(/id="batch-model"[^>]*aria-invalid="true"/);

  const outside = await fetch(`${app.url}/batches`, form({ task: "chat", model: MODEL, inputDir: "/etc/<b>", outputDir: join(base, "home", "out") }));
  expect(outside.status).toBe(400);
  const outsideHtml = await outside.text();
  expect(outsideHtml).toContain("--input-dir /etc/&lt;b&gt;");
  expect(outsideHtml).not.toContain("/etc/<b>");
  expect(outsideHtml).toMatch(/id="batch-inputDir"[^>]*aria-invalid="true"/);

  const badParams = await fetch(`${app.url}/batches`, form({ task: "chat", model: MODEL, params: "{not json" }));
  expect(badParams.status).toBe(400);
  expect(await badParams.text()).toContain("Params must be a JSON object");
  expect(await new SvcClient({ baseUrl: app.url }).batches.list({ all: true })).toEqual([]);
});

test("an unknown batch job: a page that says so", async () => {
  const missing = await fetch(`${app.url}/batches/00000000-dead-beef-0000-000000000000`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain("svc batch ls --all");
  expect((await fetch(`${app.url}/batches/nope/stop`, form({}))).status).toBe(404);
});
