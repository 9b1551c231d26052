import { describe, expect, test } from "bun:test";
import { bunCounts } from "./bun-test-file";
import { idleShare, parseProcStat, watchCpuRoom } from "./cpu-room";
import { fixedWorkers, runQueue } from "./run-queue";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LONG_WAITING_FILES, readDurations, scheduleOrder, testFiles } from "./test-files";

const root = new URL("../..", import.meta.url).pathname;

describe("the parallel runner of npm test", () => {
  test("finds every test file of the workspace, none under node_modules", () => {
    const files = testFiles(root);
    expect(files).toContain("tests/setup/scheduler.test.ts");
    expect(files).toContain("platform/test/settings.test.ts");
    expect(files.some((file) => file.includes("node_modules"))).toBe(false);
  });

  test("takes the long-waiting files first, then the longest measured, then end-to-end files before the rest", () => {
    const files = ["a/test/x.test.ts", "tests/app/e2e.test.ts", "b/test/slow.test.ts", "c/test/quick.test.ts", ...LONG_WAITING_FILES];
    const order = scheduleOrder(files, { "b/test/slow.test.ts": 90_000, "c/test/quick.test.ts": 10 });
    expect(order).toEqual([...LONG_WAITING_FILES, "b/test/slow.test.ts", "c/test/quick.test.ts", "tests/app/e2e.test.ts", "a/test/x.test.ts"]);
  });

  test("a clone that never ran the suite orders by the checked-in durations; a checkout's own last run wins over them", () => {
    const clone = mkdtempSync(join(tmpdir(), "svc-durations-"));
    try {
      mkdirSync(join(clone, "tests/setup"), { recursive: true });
      writeFileSync(join(clone, "tests/setup/durations.json"), JSON.stringify({ "a.test.ts": 1000, "b.test.ts": 2000 }));
      expect(readDurations(clone)).toEqual({ "a.test.ts": 1000, "b.test.ts": 2000 });
      mkdirSync(join(clone, "node_modules/.cache/svc-tests"), { recursive: true });
      writeFileSync(join(clone, "node_modules/.cache/svc-tests/durations.json"), JSON.stringify({ "a.test.ts": 3000 }));
      expect(readDurations(clone)).toEqual({ "a.test.ts": 3000, "b.test.ts": 2000 });
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  test("runs at most `workers` jobs at a time, every job once, results in the jobs' order", async () => {
    let running = 0;
    let most = 0;
    const results = await runQueue([5, 1, 4, 2, 3, 1, 2], fixedWorkers(3), async (ms) => {
      most = Math.max(most, ++running);
      await Bun.sleep(ms * 5);
      running--;
      return ms * 10;
    });
    expect(most).toBe(3);
    expect(results).toEqual([50, 10, 40, 20, 30, 10, 20]);
    expect(await runQueue([], fixedWorkers(3), async () => 1)).toEqual([]);
  });

  test("starts more than `workers` only while the CPU has room, one per settling time, never more than `most`", async () => {
    const sleepers = (count: number) => Array.from({ length: count }, () => 200);
    const track = () => {
      const seen = { running: 0, most: 0 };
      const job = async (ms: number) => {
        seen.most = Math.max(seen.most, ++seen.running);
        await Bun.sleep(ms);
        seen.running--;
        return ms;
      };
      return { seen, job };
    };
    const busy = track();
    await runQueue(sleepers(6), { workers: 2, most: 5, hasRoom: () => false, pollMs: 5, settleMs: 0 }, busy.job);
    expect(busy.seen.most).toBe(2);
    const idle = track();
    await runQueue(sleepers(12), { workers: 2, most: 5, hasRoom: () => true, pollMs: 5, settleMs: 0 }, idle.job);
    expect(idle.seen.most).toBe(5);
    // A settling time longer than the jobs: one beyond the workers at a time.
    const settling = track();
    await runQueue(sleepers(6), { workers: 2, most: 5, hasRoom: () => true, pollMs: 5, settleMs: 10_000 }, settling.job);
    expect(settling.seen.most).toBe(3);
  });

  test("a job that throws fails the queue, and no job starts after it", async () => {
    const started: number[] = [];
    const failing = runQueue([1, 2, 3, 4], fixedWorkers(2), async (n) => {
      started.push(n);
      if (n === 2) throw new Error("job 2 broke");
      await Bun.sleep(20);
      return n;
    });
    await expect(failing).rejects.toThrow("job 2 broke");
    await Bun.sleep(60);
    expect(started).toEqual([1, 2]);
  });

  test("the CPU's room is the idle share of /proc/stat's ticks over the window; none where it cannot be read", async () => {
    const stat = (idle: number, busy: number) => `cpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n`;
    expect(parseProcStat(stat(300, 100))).toEqual({ idle: 300, total: 400 });
    expect(parseProcStat("intr 1 2 3\n")).toBeUndefined();
    expect(idleShare(parseProcStat(stat(300, 100))!, parseProcStat(stat(330, 190))!)).toBe(0.25);

    let ticks = { idle: 0, busy: 0 };
    const quarterIdle = watchCpuRoom(0.25, 60, 10, () => stat((ticks = { idle: ticks.idle + 1, busy: ticks.busy + 3 }).idle, ticks.busy));
    const mostlyBusy = watchCpuRoom(0.3, 60, 10, () => stat(ticks.idle, ticks.busy));
    const unreadable = watchCpuRoom(0, 60, 10, () => {
      throw new Error("no /proc here");
    });
    expect(quarterIdle.hasRoom()).toBe(false);
    await Bun.sleep(150);
    expect(quarterIdle.hasRoom()).toBe(true);
    expect(mostlyBusy.hasRoom()).toBe(false);
    expect(unreadable.hasRoom()).toBe(false);
    for (const room of [quarterIdle, mostlyBusy, unreadable]) room.stop();
  });

  test("reads bun's summary; a run that ended without one, or failed without a failed test, is one failure", () => {
    expect(bunCounts("(pass) a\n\n 12 pass\n 0 fail\n 40 expect() calls\n", 0)).toEqual({ passed: 12, failed: 0 });
    expect(bunCounts(" 10 pass\n 2 fail\n", 1)).toEqual({ passed: 10, failed: 2 });
    expect(bunCounts("Segmentation fault\n", 139)).toEqual({ passed: 0, failed: 1 });
    expect(bunCounts(" 3 pass\n 0 fail\n", 1)).toEqual({ passed: 3, failed: 1 });
  });
});
