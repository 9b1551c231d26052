import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openGatewayDb } from "../src/db/connection";
import type { V1Outcome } from "../src/openai/outcome";
import { tapUsage, type BodyEnd, type TokenUsage } from "../src/openai/usage-tap";
import { UsageStore } from "../src/usage/store";

const home = mkdtempSync(join(tmpdir(), "svc-usage-tap-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const chunk = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}],"usage":null}\n\n`;
const STREAM = `${chunk("Hé")}${chunk("llo 😀")}data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}\n\ndata: [DONE]\n\n`;

/** A body sending `bytes` in parts cut at `cuts`. */
function body(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const ends = [...cuts, bytes.length];
  return new ReadableStream({
    start(controller) {
      ends.forEach((end, i) => controller.enqueue(bytes.slice(i === 0 ? 0 : ends[i - 1], end)));
      controller.close();
    },
  });
}

test("a stream cut anywhere, multi-byte characters and events split across reads, comes out without the usage the gateway asked for", async () => {
  const bytes = new TextEncoder().encode(STREAM);
  for (let cut = 1; cut < bytes.length; cut += 7) {
    let ended: [TokenUsage | null, BodyEnd] | undefined;
    const tapped = tapUsage(body(bytes, [cut, Math.min(bytes.length - 1, cut + 3)]), { sse: true, stripUsage: true, onEnd: (usage, how) => (ended = [usage, how]) });
    expect(await new Response(tapped).text()).toBe(`${chunk("Hé").replace(',"usage":null', "")}${chunk("llo 😀").replace(',"usage":null', "")}data: [DONE]\n\n`);
    expect(ended).toEqual([{ promptTokens: 5, completionTokens: 2 }, "complete"]);
  }
});

test("a stream whose client asked for the usage passes unchanged, and its usage is read", async () => {
  let usage: TokenUsage | null | undefined;
  const tapped = tapUsage(body(new TextEncoder().encode(STREAM), [40]), { sse: true, stripUsage: false, onEnd: (found) => (usage = found) });
  expect(await new Response(tapped).text()).toBe(STREAM);
  expect(usage).toEqual({ promptTokens: 5, completionTokens: 2 });
});

test("a reader that goes away cancels the service's body and ends the tap as cancelled", async () => {
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new TextEncoder().encode(chunk("tick"))),
    cancel: () => void (cancelled = true),
  });
  const ends: BodyEnd[] = [];
  const reader = tapUsage(endless, { sse: true, stripUsage: true, onEnd: (_, how) => ends.push(how) }).getReader();
  await reader.read();
  await reader.cancel();
  expect(cancelled).toBe(true);
  expect(ends).toEqual(["cancelled"]);
});

test("usage rows recorded are counted by the next read, before their batch is written", () => {
  const store = new UsageStore(openGatewayDb(home), 30);
  const since = new Date(Date.now() - 1000);
  const outcome = (status: number): V1Outcome => ({ at: new Date(), caller: { kind: "token" }, endpoint: "/v1/chat/completions", model: "owner/a", modelServed: true, serviceId: "id-a", serviceName: "a", status, end: "complete", latencyMs: 3, usage: { promptTokens: 5, completionTokens: 2 } });
  store.record(outcome(200));
  store.record(outcome(502));
  expect(store.totals(since)).toEqual({ requests: 2, errors: 1, promptTokens: 10, completionTokens: 4 });
  store.record(outcome(200));
  expect(store.rows(since)).toHaveLength(3);
});
