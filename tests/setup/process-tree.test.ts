import { describe, expect, test } from "bun:test";
import { ensureBaseImage, eventually, processExists } from "@svc/testing";
import { TEST_FILE_LABEL } from "@svc/testing/test-file-label";
import { killTree, processTree, removeContainersOf } from "./process-tree";

describe("ending a test file that ran past its bound", () => {
  test("kills the file's process and everything below it, a process in a session of its own too", async () => {
    const proc = Bun.spawn(["bash", "-c", "setsid sleep 300 & sleep 300 & wait"], { stdout: "ignore", stderr: "ignore" });
    await eventually(() => processTree(proc.pid).length === 3, 5000, "both sleeps to start");
    const tree = processTree(proc.pid);
    killTree(proc.pid);
    await proc.exited;
    await eventually(() => tree.every((pid) => !processExists(pid)), 5000, "the whole tree to be gone");
  });

  test("removes the containers labelled with the file's name, and no other", () => {
    const base = ensureBaseImage();
    const start = (file: string) =>
      Bun.spawnSync(["docker", "run", "-d", "--network", "host", "--label", `${TEST_FILE_LABEL}=${file}`, base, "sleep", "300"], { stdout: "pipe" }).stdout.toString().trim();
    const file = `tests/setup/process-tree-${process.pid}.test.ts`;
    const mine = start(file);
    const other = start(`${file}.other`);
    try {
      removeContainersOf(file);
      const exists = (id: string) => Bun.spawnSync(["docker", "inspect", id], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
      expect(exists(mine)).toBe(false);
      expect(exists(other)).toBe(true);
    } finally {
      Bun.spawnSync(["docker", "rm", "-f", mine, other], { stdout: "ignore", stderr: "ignore" });
    }
  });
});
