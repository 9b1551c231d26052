/**
 * The fair-share scheduler: tiers first, then keys in turn by weight (stride scheduling), a key
 * arriving late joining at the current turn (no banked credit), requests taken out by their caller.
 */
import { describe, expect, test } from "bun:test";
import { FairScheduler } from "../src/openai/fair-share/scheduler";

/** Takes everything waiting, in order. */
const drain = <T>(scheduler: FairScheduler<T>) => {
  const taken: T[] = [];
  for (let next = scheduler.take(); next !== undefined; next = scheduler.take()) taken.push(next);
  return taken;
};

describe("the order requests are taken in", () => {
  test("priority before default before flex, whatever came first", () => {
    const s = new FairScheduler<string>();
    s.add("flex", "a", 1, "flex-1");
    s.add("default", "a", 1, "default-1");
    s.add("priority", "b", 1, "priority-1");
    s.add("flex", "b", 1, "flex-2");
    s.add("priority", "a", 1, "priority-2");
    expect(drain(s)).toEqual(["priority-1", "priority-2", "default-1", "flex-1", "flex-2"]);
  });

  test("keys take turns: one with 64 waiting does not hold back one with 1", () => {
    const s = new FairScheduler<string>();
    for (let i = 0; i < 64; i++) s.add("default", "f", 1, `f${i}`);
    s.add("default", "i", 1, "i0");
    const order = drain(s);
    // i's single request goes second: f's first came before it, then it is i's turn.
    expect(order.indexOf("i0")).toBe(1);
    expect(order.filter((item) => item.startsWith("f"))).toEqual(Array.from({ length: 64 }, (_, i) => `f${i}`));
  });

  test("a key of weight 3 gets three turns to a key of weight 1's one", () => {
    const s = new FairScheduler<string>();
    for (let i = 0; i < 12; i++) {
      s.add("default", "heavy", 3, `h${i}`);
      s.add("default", "light", 1, `l${i}`);
    }
    const first8 = drain(s).slice(0, 8);
    expect(first8.filter((item) => item.startsWith("h"))).toHaveLength(6);
    expect(first8.filter((item) => item.startsWith("l"))).toHaveLength(2);
  });

  test("a key arriving late joins at the current turn: it banked no credit while away, and then alternates", () => {
    const s = new FairScheduler<string>();
    for (let i = 0; i < 20; i++) s.add("default", "f", 1, `f${i}`);
    // f alone for ten turns.
    expect(Array.from({ length: 10 }, () => s.take())).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}`));
    for (let i = 0; i < 5; i++) s.add("default", "late", 1, `late${i}`);
    // The late key does not get ten turns in a row for the ten it missed: the two alternate.
    expect(Array.from({ length: 6 }, () => s.take())).toEqual(["late0", "f10", "late1", "f11", "late2", "f12"]);
  });

  test("a key that empties its queue and comes back gains nothing over one that kept waiting", () => {
    const s = new FairScheduler<string>();
    s.add("default", "a", 1, "a0");
    s.add("default", "b", 1, "b0");
    s.add("default", "b", 1, "b1");
    expect(s.take()).toBe("a0");
    // a has nothing waiting now and comes back at once: its turn is still the one after b's, and b1 came first.
    s.add("default", "a", 1, "a1");
    expect(drain(s)).toEqual(["b0", "b1", "a1"]);
  });

  test("a request taken out (its caller went away, or it waited too long) is not taken; counts follow", () => {
    const s = new FairScheduler<{ id: string }>();
    const items = ["x", "y", "z"].map((id) => ({ id }));
    for (const item of items) s.add("default", "k", 1, item);
    expect(s.waitingOf("k")).toBe(3);
    expect(s.remove("default", "k", items[1]!)).toBe(true);
    expect(s.remove("default", "k", items[1]!)).toBe(false);
    expect(s.remove("flex", "k", items[0]!)).toBe(false);
    expect([s.size, s.waitingOf("k")]).toEqual([2, 2]);
    expect(drain(s).map((item) => item.id)).toEqual(["x", "z"]);
    expect(s.size).toBe(0);
  });

  test("who waits: per tier and key, highest tier first, each key's requests in arrival order", () => {
    const s = new FairScheduler<string>();
    s.add("flex", "a", 1, "a-flex");
    s.add("default", "a", 2, "a1");
    s.add("default", "a", 2, "a2");
    s.add("priority", "b", 1, "b1");
    expect([...s.waiting()]).toEqual([
      { tier: "priority", flowId: "b", weight: 1, items: ["b1"] },
      { tier: "default", flowId: "a", weight: 2, items: ["a1", "a2"] },
      { tier: "flex", flowId: "a", weight: 1, items: ["a-flex"] },
    ]);
  });
});
