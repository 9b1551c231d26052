import { expect, test } from "bun:test";
import { SerialQueue } from "../src/serial-queue";

test("work runs one piece at a time, in arrival order, and nobody is refused", async () => {
  const queue = new SerialQueue();
  const events: string[] = [];
  let running = 0;
  const job = (name: string, steps: number) =>
    queue.run(async () => {
      running++;
      expect(running).toBe(1);
      events.push(`start ${name}`);
      for (let i = 0; i < steps; i++) await Promise.resolve();
      events.push(`end ${name}`);
      running--;
      return name;
    });
  const results = await Promise.all([job("a", 5), job("b", 1), job("c", 3), job("d", 0), job("e", 2)]);
  expect(results).toEqual(["a", "b", "c", "d", "e"]);
  expect(events).toEqual(["a", "b", "c", "d", "e"].flatMap((name) => [`start ${name}`, `end ${name}`]));
  expect(queue.waiting).toBe(0);
});

test("a failing piece of work releases the queue for the next", async () => {
  const queue = new SerialQueue();
  const failed = queue.run(async () => {
    throw new Error("boom");
  });
  const next = queue.run(async () => "next");
  await expect(failed).rejects.toThrow("boom");
  expect(await next).toBe("next");
});
