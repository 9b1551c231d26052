import { expect, test } from "bun:test";
import { StopTextFilter } from "../src/stop-text-filter";

/** Feeds the growing text step by step, as the engine does, and collects what would be sent. */
function run(stops: string[], steps: string[]) {
  const filter = new StopTextFilter(stops);
  let sent = "";
  for (const text of steps) {
    const { piece, stoppedBy } = filter.next(text);
    sent += piece;
    if (stoppedBy) return { sent, stoppedBy };
  }
  return { sent: sent + filter.flush(steps.at(-1) ?? ""), stoppedBy: undefined };
}

test("text passes through when there is no stop string", () => {
  expect(run([], ["He", "Hell", "Hello"])).toEqual({ sent: "Hello", stoppedBy: undefined });
});

test("a stop string split over steps is held back, then cut", () => {
  expect(run(["END"], ["abc E", "abc EN", "abc END more"])).toEqual({ sent: "abc ", stoppedBy: "END" });
});

test("a held-back tail that does not become a stop string is sent later", () => {
  expect(run(["END"], ["abc E", "abc Ex"])).toEqual({ sent: "abc Ex", stoppedBy: undefined });
});

test("the earliest of several stop strings wins", () => {
  expect(run(["zz", "b"], ["a", "abzz"])).toEqual({ sent: "a", stoppedBy: "b" });
});

test("an incomplete UTF-8 character is not sent until it is complete", () => {
  const filter = new StopTextFilter([]);
  expect(filter.next("caf\uFFFD").piece).toBe("caf");
  expect(filter.next("café").piece).toBe("é");
});
