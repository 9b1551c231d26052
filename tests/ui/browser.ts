/**
 * Headless Chromium for the UI suite: Debian's `chromium` package (tests/setup/apt-packages.txt)
 * driven by playwright-core (a fresh profile folder per launch), and screenshots into test-artifacts/ui/.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser as PwBrowser, type BrowserContext, type Page } from "playwright-core";
import { REPO_ROOT } from "@svc/testing";

export const SCREENSHOTS = join(REPO_ROOT, "test-artifacts", "ui");
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  browser: PwBrowser;
  context: BrowserContext;
  page: Page;
  /** Another context (own cookies), e.g. with JavaScript off. */
  newContext(options?: { javaScriptEnabled?: boolean }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** A laptop-sized browser window; Playwright gives each launch a fresh user-data-dir. */
export async function openBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  const newContext = (options: { javaScriptEnabled?: boolean } = {}) => browser.newContext({ viewport: { width: 1366, height: 850 }, ...options });
  const context = await newContext();
  const page = await context.newPage();
  return { browser, context, page, newContext, close: () => browser.close() };
}

/** Saves a full-page screenshot as test-artifacts/ui/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Marks the current document, so a test can tell later that the page was not reloaded. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __svcMark: boolean }).__svcMark = true));
}

export async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __svcMark?: boolean }).__svcMark === true);
}
