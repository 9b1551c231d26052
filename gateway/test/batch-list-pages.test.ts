/**
 * A batch job that ended lately is listed without --all (GET /api/batches and the UI's Batch jobs
 * page), with where its outputs are; one that ended days ago only with all.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SvcClient } from "@svc/client";
import { homeWithEndedBatches, startSvc, type RunningSvc } from "@svc/testing";

const HOUR = 3_600_000;
let home: string;
let app: RunningSvc;

beforeAll(async () => {
  home = homeWithEndedBatches([
    { name: "finished-lately", status: "COMPLETED", endedAgoMs: HOUR, outputDir: "/data/out-lately" },
    { name: "finished-long-ago", status: "COMPLETED", endedAgoMs: 72 * HOUR, outputDir: "/data/out-long-ago" },
  ]);
  app = await startSvc({ home });
});
afterAll(async () => {
  await app?.cleanup();
  rmSync(home, { recursive: true, force: true });
});

test("GET /api/batches: the job that ended an hour ago, with its output folder; the one of three days ago only with all", async () => {
  const client = new SvcClient({ baseUrl: app.url });
  const listed = await client.batches.list();
  expect(listed.map((b) => [b.name, b.status, b.outputDir])).toEqual([["finished-lately", "COMPLETED", "/data/out-lately"]]);
  expect((await client.batches.list({ all: true })).map((b) => b.name)).toEqual(["finished-lately", "finished-long-ago"]);
});

test("the Batch jobs page shows the job that ended lately, dimmed as ended, with where its outputs are", async () => {
  const html = await (await fetch(`${app.url}/batches`)).text();
  expect(html).toMatch(/<tr data-batch-id="[0-9a-f-]+" class="ended">[\s\S]*?finished-lately[\s\S]*?<td class="outputs"><code>\/data\/out-lately<\/code><\/td>/);
  expect(html).not.toContain("finished-long-ago");
  const all = await (await fetch(`${app.url}/batches?all=1`)).text();
  expect(all).toContain("<code>/data/out-long-ago</code>");
});
