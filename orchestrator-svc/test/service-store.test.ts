import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceStore, type NewServiceRow } from "../src/db/service-store";

function store() {
  return new ServiceStore(join(mkdtempSync(join(tmpdir(), "svc-store-")), "o.db"));
}
const now = "2026-11-22T00:00:00.000Z";
const row: NewServiceRow & { id: string } = {
  id: "11111111-0000-4000-8000-000000000001", name: "a", task: "text-generation", model: "m/x", revision: "r", profile: "default",
  status: "SUBMITTED", reason: null, host: null, port: null, engine: "docker", runtime: "img", handle: null, apiKey: null,
  spec: "{}", createdBy: "me", createdAt: now, updatedAt: now,
};

test("transitions record events in order; the same status only patches", () => {
  const s = store();
  s.insert(row, "submitted");
  s.transition(row.id, "STARTING", null, { host: "127.0.0.1", port: 9000 });
  s.transition(row.id, "STARTING", null, { port: 9001 });
  s.transition(row.id, "HEALTHY", null);
  expect(s.get(row.id)).toMatchObject({ status: "HEALTHY", port: 9001, host: "127.0.0.1" });
  expect(s.events(row.id).map((e) => [e.from, e.to, e.reason])).toEqual([
    [null, "SUBMITTED", "submitted"],
    ["SUBMITTED", "STARTING", null],
    ["STARTING", "HEALTHY", null],
  ]);
});

test("a transition decided on a stale status is not applied", () => {
  const s = store();
  s.insert(row, null);
  s.transition(row.id, "STOPPING", "stop requested");
  expect(s.transition(row.id, "UNHEALTHY", "stale decision", {}, "HEALTHY")).toBeUndefined();
  expect(s.get(row.id)!.status).toBe("STOPPING");
});

test("records survive reopening, and rm removes the events too", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
  const first = new ServiceStore(join(dir, "o.db"));
  first.insert(row, null);
  const second = new ServiceStore(join(dir, "o.db"));
  expect(second.get(row.id)?.name).toBe("a");
  second.remove(row.id);
  expect(second.get(row.id)).toBeUndefined();
  expect(second.events(row.id)).toEqual([]);
});

test("a key that older records also kept in their launch arguments is kept once, in api_key, after reopening", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
  const launch = { image: "img", args: ["--max-total-tokens", "64", "--api-key", "sk-secret", "--api-key=sk-secret", "--threads", "1"], modelDir: "/m" };
  new ServiceStore(join(dir, "o.db")).insert({ ...row, apiKey: "sk-secret", spec: JSON.stringify({ job: {}, engineArgs: [], launch }) }, null);
  const reopened = new ServiceStore(join(dir, "o.db"));
  const stored = reopened.get(row.id)!;
  expect(stored.apiKey).toBe("sk-secret");
  expect(stored.spec).not.toContain("sk-secret");
  expect(JSON.parse(stored.spec).launch.args).toEqual(["--max-total-tokens", "64", "--threads", "1"]);
});

test("a page lists live services first, then ended ones, newest first; the cursor continues where it ended", () => {
  const s = store();
  const at = (minutes: number) => new Date(Date.parse(now) + minutes * 60_000).toISOString();
  const rows = [
    { n: 1, status: "STOPPED", created: 1 },
    { n: 2, status: "HEALTHY", created: 2 },
    { n: 3, status: "FAILED", created: 3 },
    { n: 4, status: "STARTING", created: 4 },
    { n: 5, status: "TIMEOUT", created: 5 },
  ] as const;
  for (const { n, status, created } of rows) {
    s.insert({ ...row, id: `11111111-0000-4000-8000-00000000000${n}`, name: `s${n}`, status, createdAt: at(created), updatedAt: at(created) }, null);
  }
  const names = (page: { rows: { name: string }[] }) => page.rows.map((r) => r.name);
  const first = s.page({ all: true }, 2);
  expect(names(first)).toEqual(["s4", "s2"]);
  const second = s.page({ all: true }, 2, first.next);
  expect(names(second)).toEqual(["s5", "s3"]);
  const third = s.page({ all: true }, 2, second.next);
  expect(names(third)).toEqual(["s1"]);
  expect(third.next).toBeUndefined();
  // Without all: live ones, and those that ended (last changed) since the given time.
  expect(names(s.page({ endedSince: new Date(at(3)) }, 10))).toEqual(["s4", "s2", "s5", "s3"]);
  expect(names(s.page({ endedSince: new Date(at(6)) }, 10))).toEqual(["s4", "s2"]);
  expect(names(s.page({ status: "FAILED" }, 10))).toEqual(["s3"]);
});

test("services made at the same instant are ordered by id, and a cursor between them misses none", () => {
  const s = store();
  for (const n of [3, 1, 4, 2, 5]) s.insert({ ...row, id: `11111111-0000-4000-8000-00000000000${n}`, name: `s${n}`, status: "STOPPED" }, null);
  const names: string[] = [];
  let page = s.page({ all: true }, 2);
  for (;;) {
    names.push(...page.rows.map((r) => r.name));
    if (!page.next) break;
    page = s.page({ all: true }, 2, page.next);
  }
  expect(names).toEqual(["s5", "s4", "s3", "s2", "s1"]);
  // The same within the services that ended since a time (found by when they last changed).
  const recent = s.page({ endedSince: new Date(now) }, 3);
  expect(recent.rows.map((r) => r.name)).toEqual(["s5", "s4", "s3"]);
  expect(s.page({ endedSince: new Date(now) }, 3, recent.next).rows.map((r) => r.name)).toEqual(["s2", "s1"]);
});

test("a page's rows are the records as one is read by id (booleans, numbers and nulls alike)", () => {
  const s = store();
  s.insert({ ...row, id: "11111111-0000-4000-8000-000000000001", onDemand: true, idleStopSeconds: 600, port: 8080, host: "127.0.0.1", status: "HEALTHY" }, null);
  s.insert({ ...row, id: "11111111-0000-4000-8000-000000000002", status: "STOPPED" }, null);
  const { rows } = s.page({ all: true }, 10);
  expect(rows.map((r) => r.id)).toEqual(["11111111-0000-4000-8000-000000000001", "11111111-0000-4000-8000-000000000002"]);
  for (const r of rows) expect(r).toEqual(s.get(r.id)!);
  expect(rows[0].onDemand).toBe(true);
  expect(rows[1].onDemand).toBe(false);
});

test("the events of several services in one query: each one's in order, none for an unknown id", () => {
  const s = store();
  const ids = Array.from({ length: 120 }, (_, i) => `11111111-0000-4000-8000-${String(i).padStart(12, "0")}`);
  for (const id of ids) s.insert({ ...row, id }, "planned");
  s.transition(ids[7], "STARTING", "started", {}, undefined, new Date("2026-11-22T00:01:00.000Z"));
  s.transition(ids[7], "HEALTHY", null, {}, undefined, new Date("2026-11-22T00:02:00.000Z"));
  const events = s.eventsOf([...ids, "22222222-0000-4000-8000-000000000000"]);
  expect(events.size).toBe(120);
  expect(events.get(ids[7])!.map((e) => [e.from, e.to, e.reason])).toEqual([
    [null, "SUBMITTED", "planned"],
    ["SUBMITTED", "STARTING", "started"],
    ["STARTING", "HEALTHY", null],
  ]);
  expect(events.get(ids[119])).toEqual([{ at: now, from: null, to: "SUBMITTED", reason: "planned" }]);
  expect(s.eventsOf([]).size).toBe(0);
});

test("when a service last entered a status", () => {
  const s = store();
  s.insert(row, null);
  expect(s.lastEnteredAt(row.id, "STARTING")).toBeUndefined();
  s.transition(row.id, "STARTING", null, {}, undefined, new Date("2026-11-22T00:01:00.000Z"));
  s.transition(row.id, "HEALTHY", null, {}, undefined, new Date("2026-11-22T00:02:00.000Z"));
  s.transition(row.id, "STARTING", null, {}, undefined, new Date("2026-11-22T00:03:00.000Z"));
  expect(s.lastEnteredAt(row.id, "STARTING")).toBe("2026-11-22T00:03:00.000Z");
});
