import { expect, test } from "bun:test";
import { IN_FLIGHT_STALE_MS, InFlightCounts } from "../src/deployments/in-flight";

test("in-flight counts: the latest report wins, a service left out has none, and counts not said again for a while count as none", () => {
  let now = 1_000_000;
  const counts = new InFlightCounts(() => now);
  expect(counts.of("a")).toBe(0);
  counts.record([{ id: "a", count: 12 }, { id: "b", count: 3 }], now);
  expect([counts.of("a"), counts.of("b")]).toEqual([12, 3]);
  counts.record([{ id: "a", count: 5 }], now);
  expect([counts.of("a"), counts.of("b")]).toEqual([5, 0]);
  now += IN_FLIGHT_STALE_MS;
  expect(counts.of("a")).toBe(5);
  // A gateway that stopped saying them (it restarted, its requests gone): they no longer hold replicas up.
  now += 1;
  expect(counts.of("a")).toBe(0);
  counts.record([{ id: "a", count: 2 }], now);
  expect(counts.of("a")).toBe(2);
});

test("requests waiting in the gateway's queue per deployment: replaced by each report, none once the reports stop", () => {
  let now = 1_000_000;
  const counts = new InFlightCounts(() => now);
  counts.record([{ id: "a", count: 2 }], now, [{ deployment: "d1", count: 7 }, { deployment: "d2", count: 0 }]);
  expect([counts.waitingFor("d1"), counts.waitingFor("d2")]).toEqual([7, 0]);
  counts.record([{ id: "a", count: 2 }], now);
  expect(counts.waitingFor("d1")).toBe(0);
  counts.record([], now, [{ deployment: "d1", count: 3 }]);
  now += IN_FLIGHT_STALE_MS + 1;
  expect(counts.waitingFor("d1")).toBe(0);
});
