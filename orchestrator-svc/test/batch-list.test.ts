/**
 * Which batch jobs a list shows (svc batch ls, GET /api/batches, the UI's page): live ones and
 * those that ended in the last 24 hours, or every one with `all`; and finding a job by its name.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BatchStatus } from "@svc/contracts";
import { FakeEngine } from "@svc/testing";
import { BatchStore } from "../src/db/batch-store";
import { BatchesService } from "../src/batches/service";

const root = mkdtempSync(join(tmpdir(), "svc-batch-list-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HOUR = 3_600_000;
const NOW = new Date("2026-06-01T12:00:00Z");
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR).toISOString();

function setUp() {
  const store = new BatchStore(join(mkdtempSync(join(root, "db-")), "orchestrator.db"));
  const engine = new FakeEngine("docker");
  const batches = new BatchesService({ store, uploadsDir: "/nonexistent", planner: {} as never, engineFor: () => engine, engineOf: () => engine, wake: () => {} });
  const add = (id: string, name: string, status: BatchStatus, createdHoursAgo: number, endedHoursAgo = createdHoursAgo) =>
    store.insert(
      { id, name, task: "chat", model: "m", revision: "r", profile: "p", engine: "docker", status, reason: null, handle: null, allocations: 1, progress: null, spec: JSON.stringify({ inputDir: "/in", outputDir: `/out/${name}`, params: {}, concurrency: 1, idleTimeout: 60, job: {}, launch: { image: "i", args: [], modelDir: "/m" } }), createdBy: "u", createdAt: ago(createdHoursAgo), updatedAt: ago(endedHoursAgo) },
      null,
    );
  return { store, batches, add };
}

test("without all: the live jobs and those that ended in the last 24 hours, newest first, with where their outputs are; with all or a status: every one", () => {
  const { batches, add } = setUp();
  add("aaaaaaaa-0000-4000-8000-000000000001", "running-old", "RUNNING", 72);
  add("aaaaaaaa-0000-4000-8000-000000000002", "done-now", "COMPLETED", 5, 1);
  add("aaaaaaaa-0000-4000-8000-000000000003", "failed-long-ago", "FAILED", 60, 48);
  add("aaaaaaaa-0000-4000-8000-000000000004", "stopped-today", "STOPPED", 30, 23);

  const recent = batches.list({}, NOW);
  expect(recent.map((b) => b.name)).toEqual(["done-now", "stopped-today", "running-old"]);
  expect(recent[0]).toMatchObject({ status: "COMPLETED", outputDir: "/out/done-now" });
  expect(batches.list({ all: true }, NOW).map((b) => b.name)).toEqual(["done-now", "stopped-today", "failed-long-ago", "running-old"]);
  expect(batches.list({ status: "FAILED" }, NOW).map((b) => b.name)).toEqual(["failed-long-ago"]);
});

test("a job that just completed stays in the default list", () => {
  const { store, batches, add } = setUp();
  add("bbbbbbbb-0000-4000-8000-000000000001", "job", "RUNNING", 100);
  store.transition("bbbbbbbb-0000-4000-8000-000000000001", "COMPLETED", "all 3 inputs done");
  const listed = batches.list({});
  expect(listed.map((b) => [b.name, b.status])).toEqual([["job", "COMPLETED"]]);
  expect(batches.list({}, new Date(Date.now() + 25 * HOUR))).toEqual([]);
});

test("a job by id, unique prefix or name (the newest of that name); a prefix of several is ambiguous", () => {
  const { batches, add } = setUp();
  add("cccccccc-1111-4000-8000-000000000001", "twice", "COMPLETED", 10);
  add("cccccccc-2222-4000-8000-000000000002", "twice", "COMPLETED", 2);
  expect(batches.resolve("twice").id).toBe("cccccccc-2222-4000-8000-000000000002");
  expect(batches.resolve("cccccccc-1").id).toBe("cccccccc-1111-4000-8000-000000000001");
  expect(() => batches.resolve("cccccccc")).toThrow("cccccccc matches several batch jobs");
  expect(() => batches.resolve("nothing")).toThrow("No batch job has the id or name nothing. 'svc batch ls --all' lists them.");
});
