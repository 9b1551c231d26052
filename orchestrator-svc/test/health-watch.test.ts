/** The health watch: tries starting services' health checks between the loop's ticks and wakes it at the first answer. */
import { expect, test } from "bun:test";
import { HealthWatch } from "../src/reconciler/health-watch";

test("the watch tries each service until one answers, then wakes the loop once and stops", async () => {
  const tries: number[] = [];
  let woken = 0;
  let answerAfter = 3;
  const wokenUp = Promise.withResolvers<void>();
  const watch = new HealthWatch(
    async (_host, port) => {
      tries.push(port);
      return port === 9002 && --answerAfter < 0;
    },
    () => {
      woken++;
      wokenUp.resolve();
    },
  );
  watch.watch([
    { id: "a", host: "127.0.0.1", port: 9001 },
    { id: "b", host: "127.0.0.1", port: 9002 },
  ]);
  await wokenUp.promise;
  const triedWhenWoken = tries.length;
  expect(tries.filter((port) => port === 9002)).toHaveLength(4);
  expect(tries.filter((port) => port === 9001)).toHaveLength(4);
  // Nothing more until the loop hands it services again.
  await Bun.sleep(50);
  expect([woken, tries.length]).toEqual([1, triedWhenWoken]);
});

test("stop() ends the watch: a failing probe is not retried", async () => {
  let tries = 0;
  const watch = new HealthWatch(async () => (tries++, false), () => {});
  watch.watch([{ id: "a", host: "127.0.0.1", port: 9003 }]);
  watch.stop();
  await Bun.sleep(50);
  expect(tries).toBe(0);
});
