import { describe, expect, test } from "bun:test";
import { bunCounts } from "./bun-test-file";
import { runQueue } from "./run-queue";
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
    const results = await runQueue([5, 1, 4, 2, 3, 1, 2], 3, async (ms) => {
      most = Math.max(most, ++running);
      await Bun.sleep(ms * 5);
      running--;
      return ms * 10;
    });
    expect(most).toBe(3);
    expect(results).toEqual([50, 10, 40, 20, 30, 10, 20]);
  });

  test("reads bun's summary; a run that ended without one, or failed without a failed test, is one failure", () => {
    expect(bunCounts("(pass) a\n\n 12 pass\n 0 fail\n 40 expect() calls\n", 0)).toEqual({ passed: 12, failed: 0 });
    expect(bunCounts(" 10 pass\n 2 fail\n", 1)).toEqual({ passed: 10, failed: 2 });
    expect(bunCounts("Segmentation fault\n", 139)).toEqual({ passed: 0, failed: 1 });
    expect(bunCounts(" 3 pass\n 0 fail\n", 1)).toEqual({ passed: 3, failed: 1 });
  });
});
