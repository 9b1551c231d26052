import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startSvc, tempHome, type RunningSvc, commitOf, files, formPost, localProfileHome, startFakeHub, tinyRepo, type FakeHub } from "@svc/testing";

let app: RunningSvc;
let hub: FakeHub;
let base: string;

beforeAll(async () => {
  base = tempHome("svc-model-pages-");
  hub = startFakeHub({ repos: [tinyRepo("acme/tiny-llm", "causal-lm")] });
  const svcHome = localProfileHome(base, [
    { repo: "openai/whisper-tiny", commit: commitOf("w"), files: files.whisper() },
    { repo: "google/bert", commit: commitOf("b"), files: files.bert() },
  ]);
  app = await startSvc({ home: svcHome, env: { HF_ENDPOINT: hub.url } });
});
afterAll(async () => {
  await app?.cleanup();
  hub?.stop();
  rmSync(base, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => formPost(app.url, fields);

test("the models page: table with filters, refresh, and the add form with live progress", async () => {
  const empty = await fetch(`${app.url}/models`);
  expect(empty.status).toBe(200);
  const emptyHtml = await empty.text();
  expect(emptyHtml).toContain('<a href="/models" aria-current="page">Models</a>');
  expect(emptyHtml).toContain("No models registered yet");
  expect(emptyHtml).toContain('<option value="default"');

  const refreshed = await fetch(`${app.url}/models/refresh`, form({ profile: "", image: "" }));
  expect(refreshed.status).toBe(200);
  const refreshedHtml = await refreshed.text();
  expect(refreshedHtml).toContain("default: 1 added, 0 removed");
  expect(refreshedHtml).toContain("1 folder(s) not registered");
  // whisper-tiny's model.safetensors is a few bytes of text: registered, its parameters and weights unknown.
  expect(refreshedHtml).toContain("1 model(s) registered with incomplete facts");
  expect(refreshedHtml).toMatch(/<tr data-repo="openai\/whisper-tiny">[\s\S]*?<td class="num"><span class="unknown">unknown<\/span><\/td>/);
  expect(refreshedHtml).toContain("openai/whisper-tiny");

  const filtered = await (await fetch(`${app.url}/models?image=text-generation`)).text();
  expect(filtered).toContain("No models match these filters.");
  expect(filtered).toContain('<option value="text-generation" selected>');

  // A bad repo id comes back on the page, escaped, with a 400 (a plain form) …
  const bad = await fetch(`${app.url}/models/downloads`, form({ repo: "<script>x</script>", revision: "", profile: "default" }));
  expect(bad.status).toBe(400);
  const badHtml = await bad.text();
  expect(badHtml).toContain("is not a model repo id");
  expect(badHtml).not.toContain("<script>x</script>");
  expect(badHtml).toContain("&lt;script&gt;x&lt;/script&gt;");
  // … and as 200 to htmx, which does not swap error answers.
  const boosted = await fetch(`${app.url}/models/downloads`, { ...form({ repo: "nope" }), headers: { ...form({}).headers, "hx-request": "true" } });
  expect(boosted.status).toBe(200);

  const added = await fetch(`${app.url}/models/downloads`, form({ repo: "acme/tiny-llm", revision: "", profile: "default" }));
  expect(added.status).toBe(303);
  const location = added.headers.get("location")!;
  expect(location).toMatch(/^\/models\?download=[0-9a-f-]{36}$/);
  const id = location.split("=")[1];
  const followed = await (await fetch(`${app.url}${location}`)).text();
  expect(followed).toContain("Download of acme/tiny-llm");
  expect(followed).toContain("<progress");

  let fragment = "";
  for (let i = 0; i < 100; i++) {
    fragment = await (await fetch(`${app.url}/models/downloads/${id}/progress`, { headers: { "hx-request": "true" } })).text();
    if (!fragment.includes('hx-trigger="every 1s"')) break;
    await Bun.sleep(50);
  }
  expect(fragment).toContain("Downloaded and registered: acme/tiny-llm (text-generation)");
  expect(fragment).not.toContain("<html");
  const table = await (await fetch(`${app.url}/models`)).text();
  expect(table).toContain("acme/tiny-llm");
  expect((await fetch(`${app.url}/models/downloads/unknown/progress`)).status).toBe(404);
});
