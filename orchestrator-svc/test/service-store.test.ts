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
