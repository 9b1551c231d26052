/**
 * A page of `svc ls` reads a bounded number of rows however long the history: each part of it
 * walks an index in the list's order and stops at its last row, or (the services that ended in the
 * last day) searches the few that changed since. Checked on SQLite's own plan of each part.
 */
import { beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceStore } from "../src/db/service-store";

const DAY = 86_400_000;
const now = Date.parse("2026-11-22T00:00:00.000Z");
let store: ServiceStore;

beforeAll(() => {
  store = new ServiceStore(join(mkdtempSync(join(tmpdir(), "svc-page-plan-")), "o.db"));
  for (let i = 0; i < 300; i++) {
    const at = new Date(now - 2 * DAY - i * 60_000).toISOString();
    const status = i < 3 ? "HEALTHY" : i % 10 === 9 ? "FAILED" : "STOPPED";
    store.insert(
      {
        id: crypto.randomUUID(), name: `s${i}`, task: "text-generation", model: "m/x", revision: "r", profile: "default", status, reason: null, host: null, port: null,
        engine: "docker", runtime: "img", handle: null, apiKey: null, spec: "{}", createdBy: "me", createdAt: at, updatedAt: at,
      },
      null,
    );
  }
});

const recently = new Date(now - DAY);
const [live, ended] = [0, 1].map((part) => (plans: string[]) => plans[part]);
/** A plan line that walks the list's order index from its start or from the cursor, with nothing to sort. */
const walksOrder = (index: string) => new RegExp(`^(live|ended): (SCAN|SEARCH) services USING INDEX ${index}\\b(?!.*TEMP B-TREE)`);

test("svc ls: the live part searches by status, the recently ended part by when they last changed; no part scans the table", () => {
  const plans = store.pagePlan({ endedSince: recently }, 100);
  expect(plans).toHaveLength(2);
  expect(live(plans)).toMatch(/^live: SEARCH services USING INDEX services_status_order \(status=\?\)/);
  expect(ended(plans)).toMatch(/^ended: SEARCH services USING INDEX services_updated_at \(updated_at>\?\)/);
  for (const plan of plans) expect(plan).not.toMatch(/SCAN services(?! USING)/);
});

test("svc ls --all: the ended part walks (created_at, id) newest first and stops at the page's end, also after a cursor", () => {
  expect(ended(store.pagePlan({ all: true }, 100))).toMatch(walksOrder("services_created_order"));
  const first = store.page({ all: true }, 100);
  expect(first.next?.ended).toBe(1);
  const plans = store.pagePlan({ all: true }, 100, first.next);
  expect(plans).toEqual([expect.stringMatching(walksOrder("services_created_order"))]);
  expect(plans[0]).toContain("(created_at,id)<(?,?)");
});

test("svc ls --filter status=…: the status's rows are walked in the list's order", () => {
  expect(store.pagePlan({ status: "STOPPED", all: true }, 100)).toEqual([expect.stringMatching(walksOrder("services_status_order"))]);
  const first = store.page({ status: "STOPPED", all: true }, 100);
  expect(store.pagePlan({ status: "STOPPED", all: true }, 100, first.next)).toEqual([expect.stringMatching(/services_status_order \(status=\? AND \(created_at,id\)<\(\?,\?\)\)(?!.*TEMP B-TREE)/)]);
});
