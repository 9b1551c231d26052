/**
 * The web UI in headless Chromium against a running app (debug mode off) with Docker and the
 * runtime images: log in, launch a text-generation service and watch it turn HEALTHY without
 * reloading, chat with streamed tokens, make an API key and see its usage, transcribe, stop it, add a model with its progress bar,
 * and a cross-origin form post that is refused. Screenshots go to test-artifacts/ui/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { Server } from "bun";
import { buildRuntimeImages, bytes, ensureDocker, sh, startFakeHub, startSvc, tinyRepo, type FakeHub, type RunningSvc } from "@svc/testing";
import { markDocument, openBrowser, screenshot, stillSameDocument, type Browser } from "./browser";

const TOKEN = "ui-suite-token-0123456789";
const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const SPEECH_MODEL = "svc-tiny/tiny-whisper-ggml";
const API_KEY = "sk-ui-key";
/** Waits for a service to start are generous: 2 cores, and other suites may be running. */
const START_TIMEOUT = 90_000;

let app: RunningSvc;
let hub: FakeHub;
let client: SvcClient;
let browser: Browser;
let inputs: string;
let serviceId = "";

beforeAll(async () => {
  ensureDocker();
  // The images built from this tree, pinned (another checkout on the same Docker Engine may retag :latest).
  const runtimes = buildRuntimeImages();
  // A repo big enough for the progress bar to have something to show.
  hub = startFakeHub({ repos: [tinyRepo("acme/tiny-llm", "causal-lm", { extra: [{ path: "extra-weights.safetensors", content: bytes(24 << 20, 7), lfs: true }] })] });
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN, HF_ENDPOINT: hub.url, ...runtimes.env } });
  client = new SvcClient({ baseUrl: app.url, token: TOKEN });
  const home = join(app.home, "profile-home");
  inputs = join(home, "audio-in");
  mkdirSync(join(app.home, "shared-cache"), { recursive: true });
  mkdirSync(inputs, { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: home, cache_dir: join(app.home, "shared-cache") });
  sh([process.execPath, "runtimes/tiny-models/src/cli.ts", join(home, "models")]);
  await client.models.refresh("default");
  sh(["espeak-ng", "-w", join(inputs, "hello.wav"), "hello world"]);
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (client) for (const service of await client.services.list({ all: true }).catch(() => [])) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
  hub?.stop();
});

describe("the web UI in a browser", () => {
  test("a visitor without a session is sent to the log-in form; the token logs in", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/services`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await screenshot(page, "01-login");
    await page.fill("#token", "not-the-token");
    await page.click("button[type=submit]");
    await expect(page.locator("p.error").textContent()).resolves.toContain("That is not the auth token");
    await page.fill("#token", TOKEN);
    await Promise.all([page.waitForURL(`${app.url}/services`), page.click("button[type=submit]")]);
    await expect(page.locator("#services-table").textContent()).resolves.toContain("No services yet");
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe("Services");
    expect(await page.locator('nav a[href="/api/docs"]').count()).toBe(1);
    expect(await page.locator('nav a[href="/docs"]').count()).toBe(1);
    await screenshot(page, "02-services-empty");
  });

  test("launch: inline errors from the API, a dry-run preview, then a service that turns HEALTHY without reloading", async () => {
    const { page, context } = browser;
    // A second tab keeps the services table open while the first one launches.
    const watcher = await context.newPage();
    await watcher.goto(`${app.url}/services`);
    expect(await watcher.locator("tr[data-service-id]").count()).toBe(0);
    await markDocument(watcher);

    await page.goto(`${app.url}/services/new`);
    expect(await page.locator("#f-model option", { hasText: TEXT_MODEL }).count()).toBe(1);
    await page.selectOption("#f-model", TEXT_MODEL);
    await page.click("summary");
    await page.fill("#f-time", "soon");
    await page.click('button[value="launch"]');
    await page.locator("#err-time").waitFor();
    expect(await page.locator("#err-time").textContent()).toContain('--time "soon"');
    expect(await page.getAttribute("#f-time", "aria-invalid")).toBe("true");
    expect(await page.inputValue("#f-time")).toBe("soon");
    await screenshot(page, "03-launch-error");

    await page.fill("#f-time", "");
    await page.click('button[value="preview"]');
    await page.locator("#preview-script").waitFor();
    const script = (await page.locator("#preview-script").textContent())!;
    expect(script).toContain("svc-text-generation");
    // One option per line, continued with backslashes; the warning names the form's field.
    const lines = script.split("\n");
    expect(lines[0]).toBe("docker run \\");
    expect(lines.slice(1, -1).every((line) => /^  \S.* \\$/.test(line))).toBe(true);
    expect(lines).toContain("  --read-only \\");
    expect(lines.some((line) => /^  --model \S+ \\$/.test(line))).toBe(true);
    const warning = await page.locator("#preview .warning").first().textContent();
    expect(warning).toContain("Choose it under “Revision”");
    expect(warning).not.toContain("--revision");
    expect(await client.services.list({ all: true })).toEqual([]);
    await screenshot(page, "04-launch-preview");

    await page.fill("#f-name", "ui-chat");
    await page.fill("#f-apiKey", API_KEY);
    await Promise.all([page.waitForURL(/\/services\/[0-9a-f-]{36}\?launched=1$/), page.click('button[value="launch"]')]);
    serviceId = new URL(page.url()).pathname.split("/")[2];
    await markDocument(page);

    // The table in the other tab shows the new service and its way to HEALTHY by itself.
    const row = watcher.locator(`tr[data-service-id="${serviceId}"]`);
    await row.waitFor({ timeout: START_TIMEOUT });
    await row.locator(".badge.HEALTHY").waitFor({ timeout: START_TIMEOUT });
    expect(await row.textContent()).toContain("ui-chat");
    expect(await stillSameDocument(watcher)).toBe(true);
    await screenshot(watcher, "05-services-healthy");
    await watcher.close();

    await page.locator("#service-status h2 .badge.HEALTHY").waitFor({ timeout: START_TIMEOUT });
    expect(await stillSameDocument(page)).toBe(true);
    // Status, endpoints and live logs come first, side by side; the code examples below, folded.
    const top = await page.evaluate(() => ["#service-status", "#logs-card", "#examples", "#examples ~ .card"].map((s) => document.querySelector(s)!.getBoundingClientRect().top));
    expect(top[0]).toBe(top[1]);
    expect(top[2]).toBeGreaterThan(top[0]);
    expect(top[3]).toBeGreaterThan(top[2]);
    expect(await page.locator("#examples").getAttribute("open")).toBeNull();
    expect(await page.locator("#example-curl").isVisible()).toBe(false);
    // Which URL to use: svc's, and the service's own port for this machine only.
    expect(await page.locator("#endpoint-url").textContent()).toBe(`${app.url}/proxy/${serviceId}/v1`);
    const port = (await client.services.get(serviceId)).port;
    const direct = await page.locator("#direct-url").textContent();
    expect(direct).toContain(`http://127.0.0.1:${port}`);
    expect(direct).toContain("only from this machine");
    await page.click("#examples summary");
    expect(await page.locator("#example-curl").isVisible()).toBe(true);
    const curl = await page.locator("#example-curl").textContent();
    expect(curl).toContain(`${app.url}/proxy/${serviceId}/v1/chat/completions`);
    expect(curl).toContain("X-Svc-Token: $SVC_AUTH_TOKEN");
    expect(curl).toContain("Authorization: Bearer $API_KEY");
    expect(await page.locator("#example-python").textContent()).toContain("from openai import OpenAI");
    // The curl example, as copied, works.
    const copied = Bun.spawnSync(["bash", "-c", curl!], { env: { ...process.env, API_KEY, SVC_AUTH_TOKEN: TOKEN }, stdout: "pipe", stderr: "pipe" });
    expect(JSON.parse(copied.stdout.toString())).toMatchObject({ object: "chat.completion" });
    // Live logs: the stream follows the container's output.
    await page.locator("#logs", { hasText: "ready on http://127.0.0.1:" }).waitFor({ timeout: START_TIMEOUT });
    await expect(page.locator("#log-status").textContent()).resolves.toContain("following live output");
    await screenshot(page, "06-service-details");
  }, 240_000);

  test("playground: the chat streams tokens through the gateway proxy, with the API key", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/playground?service=${serviceId}`);
    expect(await page.locator("#chat-key").isVisible()).toBe(true);
    await screenshot(page, "07-playground-empty");

    // Without the key, the service refuses and the page says so.
    await page.fill("#chat-message", "Hello");
    await page.click("#chat-send");
    await page.locator(".msg.assistant.error").waitFor();
    expect(await page.locator(".msg.assistant.error").textContent()).toContain("401");

    // Each text change of the answer is recorded, to see it grow while tokens arrive.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __lengths: number[] }).__lengths = seen;
      new MutationObserver(() => {
        const answers = document.querySelectorAll("#chat-log .msg.assistant:not(.error) .text");
        const last = answers[answers.length - 1];
        if (last && last.textContent && seen[seen.length - 1] !== last.textContent.length) seen.push(last.textContent.length);
      }).observe(document.getElementById("chat-log")!, { subtree: true, childList: true, characterData: true });
    });
    await page.fill("#chat-key", API_KEY);
    await page.click("summary");
    await page.fill("#chat-max", "48");
    // Greedy decoding: the tiny model's answer is the same every run (sampling could end it after one token).
    await page.fill("#chat-temperature", "0");
    await page.fill("#chat-message", "Tell me a story");
    const streamed = page.waitForResponse((response) => response.url().endsWith("/v1/chat/completions") && response.status() === 200, { timeout: 60_000 });
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(() => !document.querySelector("#chat-form[data-streaming]") && document.querySelectorAll(".msg.assistant").length >= 2, null, { timeout: 60_000 });
    const answer = await page.locator(".msg.assistant:not(.error) .text").last().textContent();
    expect(answer!.length).toBeGreaterThan(0);
    // The page asked for a stream and shows exactly the deltas of its events, several of them. (How
    // many DOM updates a person sees depends on how the chunks arrive, so that is not counted.)
    const response = await streamed;
    expect(response.headers()["content-type"]).toContain("text/event-stream");
    const deltas = (await response.text())
      .split("\n")
      .filter((line) => line.startsWith("data:") && !line.includes("[DONE]"))
      .map((line) => (JSON.parse(line.slice(5)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "")
      .filter(Boolean);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(answer!);
    const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths);
    expect(lengths.at(-1)).toBe(answer!.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    await screenshot(page, "08-playground-chat");
  }, 120_000);

  test("keys and usage: a key made on the Keys page is shown once and works at /v1; the Usage page charts what it did", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/keys`);
    await page.fill("#f-name", "ui-alice");
    await page.fill("#f-models", TEXT_MODEL);
    await page.fill("#f-expires", "30d");
    await page.click('form[action="/keys"] button[type="submit"]');
    const key = (await page.locator("#new-key").textContent())!.trim();
    expect(key).toMatch(/^svc-k-/);
    await screenshot(page, "16-keys-created");
    const chat = await fetch(`${app.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_tokens: 3 }),
    });
    expect(chat.status).toBe(200);
    const { usage } = (await chat.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    await page.goto(`${app.url}/keys`);
    expect(await page.locator("#new-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    await page.goto(`${app.url}/usage?since=1h&by=key`);
    const row = page.locator("#usage-groups tbody tr", { hasText: "ui-alice" });
    expect((await row.locator("td").allTextContents()).slice(0, 5)).toEqual(["ui-alice", "1", "0", String(usage.prompt_tokens), String(usage.completion_tokens)]);
    expect(await page.locator("#day-chart rect.requests").count()).toBe(1);
    // The key against its limits (none set: amounts without bars), and its tokens in the chart per hour.
    const tokens = (usage.prompt_tokens + usage.completion_tokens).toLocaleString("en-US");
    const keyRow = page.locator("#usage-keys tbody tr", { has: page.locator("th", { hasText: /^ui-alice$/ }) });
    expect(await keyRow.locator("td").nth(2).textContent()).toBe(`${tokens} tokens1 request`);
    expect(await keyRow.locator("meter").count()).toBe(0);
    expect(await page.locator("#hour-chart rect title", { hasText: `ui-alice: ${tokens} tokens` }).count()).toBe(1);
    expect(await page.locator(".legend", { hasText: `ui-alice (${tokens})` }).count()).toBe(1);
    await screenshot(page, "17-usage");
    await Promise.all([page.waitForURL(/hours=week/), page.click('a:text("last week")')]);
    expect(await page.locator('a[aria-current="true"]').textContent()).toBe("last week");
    expect(await page.locator("#hour-chart rect title", { hasText: `ui-alice: ${tokens} tokens` }).count()).toBe(1);
    await screenshot(page, "17-usage-week");
  }, 60_000);

  test("without JavaScript: the pages read, and the chat form still answers (not streamed)", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${app.url}/services/${serviceId}`);
      await page.fill("#token", TOKEN);
      await Promise.all([page.waitForURL(`${app.url}/services/${serviceId}`), page.click("main button[type=submit]")]);
      expect(await page.locator("#service-status h2 .badge").textContent()).toBe("HEALTHY");
      expect(await page.locator("#logs").textContent()).toContain("ready on http://127.0.0.1:");
      await page.goto(`${app.url}/services`);
      expect(await page.locator(`tr[data-service-id="${serviceId}"] .badge`).textContent()).toBe("HEALTHY");
      await page.goto(`${app.url}/playground?service=${serviceId}`);
      await page.fill("#chat-message", "Hello");
      await page.fill("#chat-key", API_KEY);
      await Promise.all([page.waitForURL(`${app.url}/playground/${serviceId}/chat`), page.click("#chat-send")]);
      expect(await page.locator(".msg.user").textContent()).toContain("Hello");
      expect((await page.locator(".msg.assistant").textContent())!.replace("assistant", "").trim().length).toBeGreaterThan(0);
      await screenshot(page, "09-playground-no-javascript");
    } finally {
      await context.close();
    }
  }, 60_000);

  test("playground: a speech service transcribes a file from its input folder", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/services/new`);
    await page.check('input[name="task"][value="speech-recognition"]');
    await page.selectOption("#f-model", SPEECH_MODEL);
    await page.fill("#f-inputDir", inputs);
    await Promise.all([page.waitForURL(/\/services\/[0-9a-f-]{36}\?launched=1$/), page.click('button[value="launch"]')]);
    const speechId = new URL(page.url()).pathname.split("/")[2];
    await page.locator("#service-status h2 .badge.HEALTHY").waitFor({ timeout: START_TIMEOUT });
    expect(await page.locator("#example-curl").textContent()).toContain(`/proxy/${speechId}/transcribe`);
    await page.click("#action-playground");
    await page.waitForURL(`${app.url}/playground?service=${speechId}`);
    // Launched without an API key: the playground asks for none.
    expect(await page.locator("#transcribe-key").count()).toBe(0);
    expect(await page.locator("#transcribe-key-none").textContent()).toContain("without an API key");
    await page.fill("#audio-path", "hello.wav");
    await page.click("#transcribe-form button[type=submit]");
    await page.waitForFunction(() => {
      const out = document.getElementById("transcript");
      return out && !out.hidden && out.textContent !== "Transcribing…";
    });
    expect(await page.locator("#transcript").textContent()).not.toContain("did not answer");
    await screenshot(page, "09-playground-transcribe");
    await client.services.stop(speechId);
  }, 180_000);

  test("stop, with its confirmation, by keyboard", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/services/${serviceId}`);
    await page.focus("#action-stop");
    await Promise.all([page.waitForURL(`${app.url}/services/${serviceId}/stop`), page.keyboard.press("Enter")]);
    await screenshot(page, "10-stop-confirm");
    // The confirm button has the focus: Enter confirms.
    await Promise.all([page.waitForURL(`${app.url}/services/${serviceId}?done=stop`), page.keyboard.press("Enter")]);
    await page.locator("#service-status h2 .badge.STOPPED").waitFor({ timeout: 30_000 });
    expect(await page.locator("#action-restart").count()).toBe(1);
    await page.reload();
    expect((await client.services.get(serviceId)).status).toBe("STOPPED");
    // A stopped service shows no port or URL as if it still answered there.
    const lastPort = (await client.services.get(serviceId)).port;
    const direct = await page.locator("#direct-url").textContent();
    expect(direct).toContain("none: the service is not running");
    expect(direct).not.toContain("http://");
    // (The logs still say where it listened: that is its output.)
    expect(await page.locator("#service-status").textContent()).not.toContain(`127.0.0.1:${lastPort}`);
    // Nor its svc URL and code examples (it is not on-demand): the page says how to start it again.
    expect(await page.locator("#endpoint-url").count()).toBe(0);
    expect(await page.locator("#examples").count()).toBe(0);
    expect(await page.locator("#endpoint-stopped").textContent()).toContain(`svc restart ${serviceId.slice(0, 13)}`);
    expect(await page.locator(".details-top ~ .card").textContent()).toContain(`none (not running; last used ${lastPort})`);
    await screenshot(page, "11-service-stopped");
  });

  test("models: add one from the hub and follow its progress bar", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/models`);
    await screenshot(page, "12-models");
    await page.fill("#add-repo", "acme/tiny-llm");
    await Promise.all([page.waitForURL(/\/models\?download=[0-9a-f-]{36}$/), page.click('form.add-form button[type="submit"]')]);
    await markDocument(page);
    expect(await page.locator(".download progress").count()).toBe(1);
    expect(await page.locator(".download h2").textContent()).toContain("Download of acme/tiny-llm");
    await page.locator(".download .notice", { hasText: "Downloaded and registered" }).waitFor({ timeout: 60_000 });
    expect(await stillSameDocument(page)).toBe(true);
    const progress = page.locator(".download progress");
    expect(await progress.getAttribute("value")).toBe(await progress.getAttribute("max"));
    await screenshot(page, "13-models-downloaded");
    // No reload comes later either (a meta refresh meant for pages without JavaScript once came in with htmx's swaps, 2 s after).
    await Bun.sleep(2500);
    expect(await stillSameDocument(page)).toBe(true);
    await page.goto(`${app.url}/profiles`);
    await screenshot(page, "14-profiles");
  }, 120_000);

  test("models: the repo gets the room, the folder is shortened (full on hover and copy), and Launch pre-fills the launch form", async () => {
    const { page, context } = browser;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
    await page.goto(`${app.url}/models`);
    const row = page.locator(`tr[data-repo="${SPEECH_MODEL}"]`);
    const [repoWidth, folderWidth] = await Promise.all([row.locator("td.repo").boundingBox(), row.locator("td.folder").boundingBox()]);
    expect(repoWidth!.width).toBeGreaterThan(folderWidth!.width);
    expect(await row.locator("td.repo").evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
    // The whole row fits in its card: no column is pushed out of view.
    const card = await page.locator("table.models").evaluate((table) => table.closest(".card")!.getBoundingClientRect().right);
    expect((await row.locator("a.launch").boundingBox())!.x + (await row.locator("a.launch").boundingBox())!.width).toBeLessThanOrEqual(card);
    const folder = row.locator("td.folder code");
    const full = (await folder.getAttribute("title"))!;
    expect(full.startsWith("/")).toBe(true);
    expect((await folder.textContent())!.startsWith("…/")).toBe(true);
    // The shortened path is the end of the full one (a snapshot's commit cut to 8 characters).
    expect(full).toContain((await folder.textContent())!.slice(2).replace(/…$/, ""));
    await row.locator("button.copy-path").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
    await screenshot(page, "15-models-table");

    const model = (await client.models.list({ repo: SPEECH_MODEL }))[0];
    await Promise.all([page.waitForURL(/\/services\/new\?/), row.locator("a.launch").click()]);
    expect(await page.isChecked('input[name="task"][value="speech-recognition"]')).toBe(true);
    expect(await page.inputValue("#f-model")).toBe(SPEECH_MODEL);
    expect(await page.inputValue("#f-revision")).toBe(model.revision);
    expect(await page.inputValue("#f-profile")).toBe("default");
    await screenshot(page, "16-launch-prefilled");
  });

  test("overview: services per status and profile, model counts, the engines' reachability; the API docs link back", async () => {
    const { page } = browser;
    const services = await client.services.list({ all: true });
    await page.goto(`${app.url}/`);
    const counts = page.locator("#service-counts");
    expect(await counts.locator("h2").textContent()).toContain(`${services.length} recorded`);
    for (const status of new Set(services.map((s) => s.status))) {
      const n = services.filter((s) => s.status === status).length;
      expect(await counts.locator('table[aria-label="Services per status"] tr', { hasText: status }).locator("td").last().textContent()).toBe(String(n));
    }
    expect(await counts.locator('table[aria-label="Services per profile"] tr', { hasText: "default" }).locator("td").last().textContent()).toBe(String(services.length));
    const models = await client.models.list();
    expect(await page.locator("#model-counts h2").textContent()).toContain(`${models.length} snapshots`);
    const speech = models.filter((m) => m.image === "speech-recognition").length;
    expect(await page.locator("#model-counts tr", { hasText: "speech-recognition" }).locator("td").last().textContent()).toBe(String(speech));
    const docker = page.locator('#engines tr[data-engine="docker"]');
    expect(await docker.locator(".badge").textContent()).toBe("reachable");
    expect(await docker.textContent()).toContain("Docker Engine");
    await screenshot(page, "17-overview");

    // The documentation, from the header: rendered pages whose links stay under /docs.
    await Promise.all([page.waitForURL(`${app.url}/docs`), page.click('nav a[href="/docs"]')]);
    expect(await page.locator("article h1").textContent()).toBe("svc documentation");
    await Promise.all([page.waitForURL(`${app.url}/docs/profiles`), page.click('article a[href="/docs/profiles"]')]);
    expect(await page.locator("article h1").textContent()).toBe("Profiles");
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe("Docs");
    await screenshot(page, "18-docs");

    await page.goto(`${app.url}/api/docs`);
    await Promise.all([page.waitForURL(`${app.url}/services`), page.click("#back-to-ui")]);
  });

  test("a form posted from another origin is refused, even with the session cookie", async () => {
    const { page } = browser;
    const target = `${app.url}/services/${serviceId}/restart`;
    const evil: Server<undefined> = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(`<!doctype html><form method="post" action="${target}"><button id="go">Win a prize</button></form>`, {
          headers: { "content-type": "text/html" },
        }),
    });
    try {
      await page.goto(`http://127.0.0.1:${evil.port}/`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url() === target), page.click("#go")]);
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain("cross_origin");
      expect((await client.services.get(serviceId)).status).toBe("STOPPED");
      // The same form from the UI itself works.
      await page.goto(`${app.url}/services/${serviceId}/restart`);
      await Promise.all([page.waitForURL(`${app.url}/services/${serviceId}?done=restart`), page.click("main form button[type=submit]")]);
      expect((await client.services.get(serviceId)).status).not.toBe("STOPPED");
    } finally {
      evil.stop(true);
    }
  });

  test("remove, with its confirmation: the record goes and the list says so", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/services/${serviceId}`);
    await Promise.all([page.waitForURL(`${app.url}/services/${serviceId}/remove`), page.click("#action-remove")]);
    expect(await page.locator("main").textContent()).toContain("A service that still runs is stopped first.");
    await Promise.all([page.waitForURL(`${app.url}/services?status=all&removed=ui-chat`), page.click("main form button[type=submit]")]);
    expect(await page.locator("p.notice").textContent()).toBe("Removed the record of service ui-chat.");
    expect(await page.locator(`tr[data-service-id="${serviceId}"]`).count()).toBe(0);
    await expect(client.services.get(serviceId)).rejects.toMatchObject({ status: 404 });
  });

  test("batch jobs: the launcher runs a folder, the progress bar fills without reloading, the job's page lists the failure", async () => {
    const { page } = browser;
    const audio = join(app.home, "profile-home", "batch-audio");
    mkdirSync(audio, { recursive: true });
    for (let i = 0; i < 6; i++) sh(["espeak-ng", "-w", join(audio, `clip-${i}.wav`), `batch clip ${i}`]);
    writeFileSync(join(audio, "broken.wav"), "not audio");
    await page.goto(`${app.url}/batches`);
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe("Batch jobs");
    await markDocument(page);
    await page.selectOption("#batch-task", "transcribe");
    await page.fill("#batch-model", SPEECH_MODEL);
    await page.fill("#batch-inputDir", audio);
    await page.fill("#batch-outputDir", join(app.home, "profile-home", "batch-out"));
    await page.fill("#batch-idleTimeout", "0");
    await page.fill("#batch-name", "ui-batch");
    await Promise.all([page.waitForURL(/\/batches\/[0-9a-f-]{36}$/), page.click("#launcher button[type=submit]")]);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    await page.goto(`${app.url}/batches?all=1`);
    await markDocument(page);
    const row = page.locator(`tr[data-batch-id="${id}"]`);
    await row.locator(".progress-text", { hasText: "6 of 7 done, 1 failed" }).waitFor({ timeout: START_TIMEOUT });
    await row.locator(".badge", { hasText: "COMPLETED" }).waitFor({ timeout: START_TIMEOUT });
    expect(await stillSameDocument(page)).toBe(true);
    await screenshot(page, "20-batches");
    await page.click(`tr[data-batch-id="${id}"] a`);
    await expect(page.locator("table.failures").textContent()).resolves.toContain("broken.wav");
    expect(await page.locator("table.failures").textContent()).toContain("HTTP 415");
    await screenshot(page, "21-batch-details");
    await client.batches.remove(id);
  });

  test("when the session ends, the next status poll takes the page to the log-in form", async () => {
    const { page, context } = browser;
    await page.goto(`${app.url}/services?status=all`);
    await context.clearCookies();
    await page.waitForURL(`${app.url}/login?next=${encodeURIComponent("/services?status=all")}`, { timeout: 15_000 });
    expect(await page.locator("#token").count()).toBe(1);
  });
});
