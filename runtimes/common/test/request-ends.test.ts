/** The records of streams' ends the gateway polls (request-ends.ts): in order, waited for, the newest kept, only for requests that name themselves. */
import { expect, test } from "bun:test";
import { REQUEST_ID_HEADER } from "@svc/contracts/request-ends";
import { RequestEnds } from "../src/request-ends";

const named = (id: string) => new Request("http://runtime/v1/chat/completions", { headers: { [REQUEST_ID_HEADER]: id } });

test("only a request that names itself is recorded; records come in order after the poll's `after`", async () => {
  const ends = new RequestEnds();
  expect(ends.reporter(new Request("http://runtime/v1/chat/completions"))).toBeUndefined();
  expect(ends.reporter(named("x".repeat(129)))).toBeUndefined();
  const start = await ends.after(undefined, 0);
  expect(start).toEqual({ instance: ends.instance, last: 0, lost: false, ends: [] });
  ends.reporter(named("a"))!("complete", { promptTokens: 5, completionTokens: 2 });
  ends.reporter(named("b"))!("error", null);
  expect(await ends.after(0, 0)).toEqual({
    instance: ends.instance,
    last: 2,
    lost: false,
    ends: [
      { seq: 1, id: "a", end: "complete", usage: { promptTokens: 5, completionTokens: 2 } },
      { seq: 2, id: "b", end: "error", usage: null },
    ],
  });
  expect((await ends.after(1, 0)).ends.map((end) => end.id)).toEqual(["b"]);
  expect(new RequestEnds().instance).not.toBe(ends.instance);
});

test("a poll with nothing new waits for the next record, or its time, or its caller going away", async () => {
  const ends = new RequestEnds();
  const waiting = ends.after(0, 10_000);
  setTimeout(() => ends.reporter(named("late"))!("cancelled", null), 20);
  expect((await waiting).ends).toEqual([{ seq: 1, id: "late", end: "cancelled", usage: null }]);
  const started = performance.now();
  expect((await ends.after(1, 50)).ends).toEqual([]);
  expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  const gone = new AbortController();
  const abandoned = ends.after(1, 10_000, gone.signal);
  gone.abort();
  expect((await abandoned).ends).toEqual([]);
  // A cursor from another process is answered at once: the caller sees the instance change.
  expect((await ends.after(7, 10_000)).instance).toBe(ends.instance);
});

test("the newest 20,000 records at least are kept: a poll from before them is told some were lost", async () => {
  const ends = new RequestEnds();
  for (let i = 0; i < 25_001; i++) ends.reporter(named(`r${i}`))!("complete", null);
  const page = await ends.after(2, 0);
  expect(page.lost).toBe(true);
  expect(page.ends[0]!.seq).toBe(5_002);
  expect(page.ends).toHaveLength(20_000);
  expect((await ends.after(5_001, 0)).lost).toBe(false);
  const recent = await ends.after(24_996, 0);
  expect(recent).toMatchObject({ lost: false, last: 25_001 });
  expect(recent.ends.map((end) => end.seq)).toEqual([24_997, 24_998, 24_999, 25_000, 25_001]);
});
