import { expect, test } from "bun:test";
import { processAlive, readProcStat } from "../src/process";
import { makeZombie } from "../../tests/support/zombie";

test("a running process is alive, an exited one is not", async () => {
  expect(processAlive(process.pid)).toBe(true);
  const child = Bun.spawn(["true"]);
  await child.exited;
  expect(processAlive(child.pid)).toBe(false);
});

test("a zombie (exited, not yet reaped by its parent) counts as dead", async () => {
  const zombie = await makeZombie();
  try {
    expect(readProcStat(zombie.pid)?.state).toBe("Z");
    expect(processAlive(zombie.pid)).toBe(false);
  } finally {
    await zombie.release();
  }
});
