import { expect, test } from "bun:test";
import { RequestQueue } from "../src/request-queue";

/** Runs jobs of `steps` microtask turns each and records when each starts and ends. */
async function runJobs(queue: RequestQueue, jobs: Array<[string, number]>) {
  const events: string[] = [];
  let running = 0;
  let most = 0;
  const results = await Promise.all(
    jobs.map(([name, steps]) =>
      queue.run(async () => {
        most = Math.max(most, ++running);
        events.push(`start ${name}`);
        for (let i = 0; i < steps; i++) await Promise.resolve();
        events.push(`end ${name}`);
        running--;
        return name;
      }),
    ),
  );
  return { events, most, results };
}

test("with one slot, work runs one piece at a time, in arrival order, and nobody is refused", async () => {
  const queue = new RequestQueue();
  const { events, most, results } = await runJobs(queue, [["a", 5], ["b", 1], ["c", 3], ["d", 0], ["e", 2]]);
  expect(results).toEqual(["a", "b", "c", "d", "e"]);
  expect(most).toBe(1);
  expect(events).toEqual(["a", "b", "c", "d", "e"].flatMap((name) => [`start ${name}`, `end ${name}`]));
  expect(queue.waiting).toBe(0);
});

test("with three slots, three run at once and the rest start in arrival order", async () => {
  const queue = new RequestQueue(3);
  const { events, most } = await runJobs(queue, [["a", 50], ["b", 50], ["c", 50], ["d", 1], ["e", 1]]);
  expect(most).toBe(3);
  expect(events.filter((event) => event.startsWith("start"))).toEqual(["start a", "start b", "start c", "start d", "start e"]);
  expect(events.indexOf("start d")).toBeGreaterThan(events.indexOf("end a"));
});

test("a failing piece of work releases its slot for the next", async () => {
  const queue = new RequestQueue();
  const failed = queue.run(async () => {
    throw new Error("boom");
  });
  const next = queue.run(async () => "next");
  await expect(failed).rejects.toThrow("boom");
  expect(await next).toBe("next");
  expect(() => new RequestQueue(0)).toThrow("at least one slot");
});
