/**
 * A deployment in the web UI, in headless Chromium against the app with Docker and the runtime images
 * (issue 31): launched from the form with replicas and routing, its page follows the replica to HEALTHY
 * without reloading, the scale form changes its bounds (an event says so, newest first), the services
 * page groups the replica under it, and Stop drains it. Screenshots go to test-artifacts/ui/.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";
import { markDocument, openBrowser, screenshot, stillSameDocument, type Browser } from "./browser";

const TOKEN = "ui-deployments-token-0123456789";
/** Generous: 2 cores, and other suites may be running. */
const START_TIMEOUT = 90_000;

let tiny: TinyApp;
let browser: Browser;

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  for (const d of (await tiny?.client.deployments.list({ all: true }).catch(() => [])) ?? []) await tiny.client.deployments.remove(d.id, { force: true }).catch(() => {});
  await tiny?.cleanup();
});

test("launch a deployment, watch its replica turn HEALTHY, scale it, see it grouped, stop it", async () => {
  const { page } = browser;
  const url = tiny.app.url;
  await page.goto(`${url}/login`);
  await page.fill("#token", TOKEN);
  await Promise.all([page.waitForURL(/\/$|\/services$/), page.click("button[type=submit]")]);

  await page.goto(`${url}/services/new`);
  await page.selectOption("#f-model", TEXT_MODEL);
  await page.fill("#f-name", "ui-deploy");
  await page.click("summary:has-text('Replicas')");
  await page.fill("#f-replicas", "1..2");
  await page.selectOption("#f-routing", "prefix");
  await Promise.all([page.waitForURL(/\/deployments\/[0-9a-f-]{36}\?launched=1$/), page.click('button[value="launch"]')]);
  const id = new URL(page.url()).pathname.split("/")[2];
  await markDocument(page);
  expect(await page.locator("p.notice").textContent()).toBe("Launched deployment ui-deploy: 1..2 replicas.");
  expect(await page.locator("#routing").textContent()).toBe("prefix");

  // The panel follows the replica to HEALTHY by itself.
  await page.locator("#replica-counts", { hasText: "1 healthy of 1..2" }).waitFor({ timeout: START_TIMEOUT });
  await page.locator("#deployment-status tr[data-service-id] .badge.HEALTHY").waitFor();
  expect(await stillSameDocument(page)).toBe(true);
  expect(await page.locator("#deployment-events tbody tr").last().textContent()).toContain("created with 1..2 replicas");
  await screenshot(page, "deployment-01-healthy");

  await page.fill("#f-replicas", "1..3");
  await page.selectOption("#f-routing", "least-busy");
  await Promise.all([page.waitForURL(`${url}/deployments/${id}?done=scale`), page.click("#action-scale")]);
  expect(await page.locator("p.notice").textContent()).toBe("Scaled ui-deploy.");
  expect(await page.locator("#deployment-events tbody tr").first().textContent()).toContain("scaled by its creator: replicas 1..3, routing least-busy");
  expect(await tiny.client.deployments.get(id)).toMatchObject({ min: 1, max: 3, routing: "least-busy" });

  await page.goto(`${url}/services`);
  const head = page.locator(`tr.deployment[data-deployment-id="${id}"]`);
  expect(await head.textContent()).toContain("1 healthy of 1..3");
  const replica = page.locator(`tr.deployment[data-deployment-id="${id}"] + tr.replica`);
  expect(await replica.textContent()).toContain("ui-deploy-1");
  expect(await replica.locator(".badge.HEALTHY").count()).toBe(1);
  await screenshot(page, "deployment-02-services-grouped");

  await head.locator("a").first().click();
  await page.click("#action-stop");
  await Promise.all([page.waitForURL(`${url}/deployments/${id}?done=stop`), page.click("button[type=submit].danger")]);
  await page.locator("#deployment-status h2 .badge.STOPPED").waitFor();
  await page.locator("#deployment-status tr[data-service-id] .badge.STOPPED").waitFor({ timeout: START_TIMEOUT });
  expect(await page.locator("#action-stop").count()).toBe(0);
  await screenshot(page, "deployment-03-stopped");
}, 300_000);
