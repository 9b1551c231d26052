import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, AlreadyRunningError, processStartTicks, releaseLock, updateLock, type RunRecord } from "../src/lock";
import { makeZombie } from "@svc/testing";

function record(pid = process.pid): RunRecord {
  return { pid, pidStartTicks: processStartTicks(pid), url: "http://localhost:8000", homeDir: "/h", startedAt: "now", components: {} };
}

const lockIn = () => join(mkdtempSync(join(tmpdir(), "svc-lock-")), "svc.lock");

describe("home folder lock", () => {
  test("a live holder refuses a second acquisition and is named in the error", () => {
    const lock = lockIn();
    acquireLock(lock, record());
    expect(() => acquireLock(lock, record())).toThrow(AlreadyRunningError);
    expect(() => acquireLock(lock, record())).toThrow(`pid ${process.pid}`);
  });

  test("a lock whose process is gone is taken over", async () => {
    const lock = lockIn();
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(lock, JSON.stringify(record(dead.pid)));
    acquireLock(lock, record());
    expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(process.pid);
  });

  test("a lock whose holder is a zombie (killed, not yet reaped) is taken over at once", async () => {
    const lock = lockIn();
    const zombie = await makeZombie();
    try {
      writeFileSync(lock, JSON.stringify(record(zombie.pid)));
      expect(JSON.parse(readFileSync(lock, "utf8")).pidStartTicks).not.toBeNull();
      acquireLock(lock, record());
      expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(process.pid);
    } finally {
      await zombie.release();
    }
  });

  test("a lock whose pid now belongs to another process (recycled) is taken over", () => {
    const lock = lockIn();
    writeFileSync(lock, JSON.stringify({ ...record(), pidStartTicks: 1 }));
    acquireLock(lock, record());
    expect(JSON.parse(readFileSync(lock, "utf8")).pidStartTicks).toBe(processStartTicks(process.pid));
  });

  test("an unreadable lock is taken over", () => {
    const lock = lockIn();
    writeFileSync(lock, "{half-writ");
    acquireLock(lock, record());
    expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(process.pid);
  });

  test("updates replace the content; release removes only our own lock", () => {
    const lock = lockIn();
    acquireLock(lock, record());
    updateLock(lock, { ...record(), components: { gateway: { pid: 42, port: 8000 } } });
    expect(JSON.parse(readFileSync(lock, "utf8")).components.gateway.pid).toBe(42);
    writeFileSync(lock, JSON.stringify(record(1)));
    releaseLock(lock);
    expect(existsSync(lock)).toBe(true);
    writeFileSync(lock, JSON.stringify(record()));
    releaseLock(lock);
    expect(existsSync(lock)).toBe(false);
  });
});
