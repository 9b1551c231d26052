/**
 * The UI's services list pages like `svc ls --all`: 100 services a page, newest first, with links
 * to the older ones and back, on a home whose history is longer than a page.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { homeWithEndedServices, startSvc, type RunningSvc } from "@svc/testing";

const ENDED = 150;
let app: RunningSvc;
let home: string;

beforeAll(async () => {
  home = homeWithEndedServices(ENDED);
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
