/**
 * The UI's services list pages like `svc ls --all`: 100 services a page, newest first, with links
 * to the older ones and back, on a home whose history is longer than a page.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ServiceStore } from "@svc/orchestrator-svc";
import { startSvc, tempHome, type RunningSvc } from "@svc/testing";

const DAY = 86_400_000;
const ENDED = 150;
let app: RunningSvc;
let home: string;

beforeAll(async () => {
  home = tempHome("svc-services-paging-");
  mkdirSync(join(home, "data", "orchestrator-svc"), { recursive: true });
  const store = new ServiceStore(join(home, "data", "orchestrator-svc", "orchestrator.db"));
  for (let i = 0; i < ENDED; i++) {
    const at = new Date(Date.now() - 2 * DAY - i * 60_000).toISOString();
    store.insert(
      {
        id: crypto.randomUUID(), name: `old-${String(i).padStart(3, "0")}`, task: "text-generation", model: "acme/tiny-gguf", revision: "0".repeat(40), profile: "default",
        status: "STOPPED", reason: null, host: null, port: null, engine: "docker", runtime: "svc-text-generation:latest",
        handle: null, apiKey: null, spec: JSON.stringify({ job: {}, engineArgs: [], launch: {} }), createdBy: "test", createdAt: at, updatedAt: at,
      },
      null,
    );
  }
  app = await startSvc({ home });
});
afterAll(async () => {
  await app?.cleanup();
  rmSync(home, { recursive: true, force: true });
});

const names = (html: string) => [...html.matchAll(/<td>(old-\d{3})<\/td>/g)].map((match) => match[1]);
const link = (html: string, text: string) => html.match(new RegExp(`<a href="([^"]+)"[^>]*>${text}</a>`))?.[1]?.replaceAll("&amp;", "&");

test("a history longer than a page: the newest 100, then the rest through 'Older services', and back", async () => {
  const first = await (await fetch(`${app.url}/services?status=all`)).text();
  expect(names(first)).toEqual(Array.from({ length: 100 }, (_, i) => `old-${String(i).padStart(3, "0")}`));
  expect(link(first, "← Newest")).toBeUndefined();
  const older = link(first, "Older services →");
  expect(older).toMatch(/^\/services\?status=all&cursor=/);

  const second = await fetch(`${app.url}${older}`);
  expect(second.status).toBe(200);
  const secondHtml = await second.text();
  expect(names(secondHtml)).toEqual(Array.from({ length: ENDED - 100 }, (_, i) => `old-${String(i + 100).padStart(3, "0")}`));
  expect(link(secondHtml, "Older services →")).toBeUndefined();
  expect(link(secondHtml, "← Newest")).toBe("/services?status=all");
  // The page's poll keeps to its page.
  expect(secondHtml).toMatch(/hx-get="\/services\/table\?status=all&amp;cursor=/);
});

test("a cursor that is not one svc gave is refused with the API's message, not a server error", async () => {
  const response = await fetch(`${app.url}/services?status=all&cursor=not-a-cursor`);
  expect(response.status).toBe(400);
  expect(await response.text()).toContain('role="alert"');
});
