/**
 * A stream from svc's own runtime passes /v1 untouched: the gateway names the request, and learns
 * its end and usage from the runtime's records (REQUEST_ENDS_PATH, the runtime's own code here in a
 * stand-in server) instead of reading the stream. Until the service has said it keeps them, and
 * after its records were out of reach, streams are read on their way as for any other server.
 */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { REQUEST_ID_HEADER } from "@svc/contracts";
import { RequestEnds, requestEndsRoute } from "@svc/runtime-common";
import { eventually } from "@svc/testing";
import { ServiceCatalog } from "../src/openai/catalog";
import type { V1Outcome } from "../src/openai/outcome";
import { RequestEndWatch } from "../src/openai/request-ends";
import { OpenAiRouter } from "../src/openai/service";
import { standInRoute } from "./stand-in-route";

const KEY = "own-key-of-the-service";
const USAGE = { prompt_tokens: 7, total_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } };

/** What the stand-in saw of each chat request. */
const seen: Array<{ body: string; requestId: string | null }> = [];
let records = new RequestEnds();
let recordsAnswer: "records" | "failing" = "records";
/** Streams wait here before their last chunk while set. */
let holding: Promise<void> | undefined;
let cancelled = 0;
/** The record pages asked of the stand-in (a probe, or a poll). */
let pagesAsked = 0;

/** The stream the stand-in sends for a body: three chunks, the usage chunk when asked, [DONE]. */
function events(body: { stream_options?: { include_usage?: boolean } }): string[] {
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (content: string) => ({ id: "x", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content } }], ...(withUsage ? { usage: null } : {}) });
  return [chunk("a"), chunk("b"), chunk("c"), ...(withUsage ? [{ id: "x", object: "chat.completion.chunk", model: "m", choices: [], usage: USAGE }] : []), "[DONE]"].map(
    (event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`,
  );
}

const service = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    if (request.method === "GET") {
      pagesAsked++;
      if (recordsAnswer === "failing") return new Response("down", { status: 503 });
      return requestEndsRoute(records, KEY).handle(request);
    }
    const text = await request.text();
    seen.push({ body: text, requestId: request.headers.get(REQUEST_ID_HEADER) });
    const report = records.reporter(request);
    const parts = events(JSON.parse(text));
    const encoder = new TextEncoder();
    let i = 0;
    let ended = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (i === parts.length - 1) {
            if (holding) await holding;
            ended = true;
            report?.("complete", { promptTokens: USAGE.prompt_tokens, completionTokens: USAGE.completion_tokens });
          }
          controller.enqueue(encoder.encode(parts[i++]!));
          if (i === parts.length) controller.close();
        },
        cancel() {
          cancelled++;
          if (!ended) report?.("cancelled", null);
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  },
});

const route = standInRoute({ id: "svc-1", name: "one", url: `http://127.0.0.1:${service.port}`, apiKey: KEY });
const outcomes: V1Outcome[] = [];
let router: OpenAiRouter;
let gateway: ReturnType<typeof Bun.serve>;

beforeEach(() => {
  gateway?.stop(true);
  records = new RequestEnds();
  recordsAnswer = "records";
  holding = undefined;
  seen.length = 0;
  outcomes.length = 0;
  const watch = new RequestEndWatch({ waitMs: 500, giveUpMs: 300, retryMs: 50, askAgainMs: 400 });
  router = new OpenAiRouter(new ServiceCatalog(async () => [route]), () => ({ kind: "anonymous" }), (outcome) => outcomes.push(outcome), { ends: watch });
  gateway = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (request, server) => router.handle(request, server) });
});

afterAll(() => {
  gateway?.stop(true);
  service.stop(true);
});

const BODY = JSON.stringify({ model: "owner/m", messages: [{ role: "user", content: "hi" }], stream: true });
const chat = (signal?: AbortSignal) =>
  fetch(`http://127.0.0.1:${gateway.port}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", [REQUEST_ID_HEADER]: "forged-by-the-client" }, body: BODY, signal });

/** Opens a stream the stand-in holds before its last chunk (until `release`), its first chunk read. */
async function heldStream(signal?: AbortSignal) {
  let release!: () => void;
  holding = new Promise((resolve) => (release = resolve));
  const reader = (await chat(signal)).body!.getReader();
  await reader.read();
  return { reader, release };
}

/** The stream in flight (the last one sent) was ended as an error, with nothing left in flight; then it is let go and read to its end. */
async function expectEndedAsError(before: number, held: Awaited<ReturnType<typeof heldStream>>, what: string) {
  await eventually(async () => outcomes.length > before, 5000, what);
  expect(outcomes.at(-1)).toMatchObject({ end: "error", usage: null });
  expect(router.balancer.count("svc-1")).toBe(0);
  held.release();
  while (!(await held.reader.read()).done);
}

/** Sends streams until one is sent named (the service said it keeps records), reading each to its end. */
async function untilNamed(): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const text = await (await chat()).text();
    if (seen.at(-1)!.requestId) return text;
    await Bun.sleep(20);
  }
  throw new Error("no request was sent named");
}

test("once the service says it keeps records, a stream passes byte for byte and its usage comes from the record", async () => {
  // The first stream is read on its way (the service is being asked meanwhile): the gateway asked for its usage.
  const first = await (await chat()).text();
  expect(seen[0]).toEqual({ body: expect.stringContaining('"include_usage":true'), requestId: null });
  expect(first).toBe(events({}).join(""));

  const text = await untilNamed();
  const named = seen.at(-1)!;
  expect(named.body).toBe(BODY);
  expect(named.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(text).toBe(events({}).join(""));
  await eventually(async () => outcomes.length === seen.length, 5000, "the named stream's outcome");
  expect(outcomes.at(-1)).toMatchObject({ status: 200, serviceId: "svc-1", end: "complete", usage: { promptTokens: 7, completionTokens: 3 } });
  expect(outcomes.every((outcome) => outcome.usage?.completionTokens === 3)).toBe(true);
  expect(router.balancer.count("svc-1")).toBe(0);
});

test("a client that goes away mid-stream: the service's stream is cancelled, recorded so, and nothing stays in flight", async () => {
  await untilNamed();
  const before = outcomes.length;
  const gone = new AbortController();
  const { release } = await heldStream(gone.signal);
  expect(seen.at(-1)!.requestId).not.toBeNull();
  expect(router.balancer.count("svc-1")).toBe(1);
  const cancelledBefore = cancelled;
  gone.abort();
  await eventually(async () => cancelled > cancelledBefore, 5000, "the service's stream to be cancelled");
  release();
  await eventually(async () => outcomes.length > before, 5000, "the cancelled stream's outcome");
  expect(outcomes.at(-1)).toMatchObject({ end: "cancelled", usage: null });
  expect(router.balancer.count("svc-1")).toBe(0);
});

test("records out of reach: what was in flight ends as an error after the give-up time, and streams are read on their way again", async () => {
  await untilNamed();
  const before = outcomes.length;
  const held = await heldStream();
  recordsAnswer = "failing";
  await expectEndedAsError(before, held, "the stream to be given up");

  const text = await (await chat()).text();
  expect(seen.at(-1)!.requestId).toBeNull();
  expect(text).toBe(events({}).join(""));
  await eventually(async () => outcomes.at(-1)?.usage?.completionTokens === 3, 5000, "the tapped stream's usage");
  // Once it answers again, it is asked again (after askAgainMs) and streams go named once more.
  recordsAnswer = "records";
  await untilNamed();
});

test("a service that started again (its records another process's): what was in flight there ends as an error, and later streams are named again", async () => {
  await untilNamed();
  const before = outcomes.length;
  const held = await heldStream();
  records = new RequestEnds();
  // The stand-in's new records are polled once the old poll's wait is over: a stream ended meanwhile tells it at once.
  records.reporter(new Request("http://runtime/", { headers: { [REQUEST_ID_HEADER]: "someone-else" } }))!("complete", null);
  await expectEndedAsError(before, held, "the stream in flight to be ended");
  const text = await (await chat()).text();
  expect(seen.at(-1)!.requestId).not.toBeNull();
  expect(text).toBe(events({}).join(""));
  await eventually(async () => outcomes.at(-1)?.end === "complete" && outcomes.at(-1)?.usage?.completionTokens === 3, 5000, "the named stream's outcome");
});

test("a service not streamed to for a while is forgotten once another one appears, and asked again should it come back", async () => {
  const watch = new RequestEndWatch({ forgetAfterMs: 50, waitMs: 20 });
  const other = standInRoute({ id: "svc-2", name: "two", url: route.url!, apiKey: KEY });
  const ignore = () => {};
  expect(watch.watch(route, ignore)).toBeUndefined();
  // Asked once: named from then on.
  await eventually(async () => {
    const named = watch.watch(route, ignore);
    named?.forget();
    return named !== undefined;
  }, 5000, "the service to be known to keep records");
  const asked = pagesAsked;
  watch.watch(route, ignore)?.forget();
  expect(pagesAsked).toBe(asked);
  // Its polls (20 ms each) are over, and no stream for 50 ms.
  await Bun.sleep(1000);
  expect(watch.watch(other, ignore)).toBeUndefined();
  // Forgotten: asked again before its streams are named.
  expect(watch.watch(route, ignore)).toBeUndefined();
  await eventually(async () => pagesAsked >= asked + 2, 5000, "the service to be asked again");
});

test("while requests wait for a slot at the service (endsAtOnce), a stream is read on its way: its end is known as it passes, not from the records", async () => {
  await untilNamed();
  let waiting = true;
  const hurried = new OpenAiRouter(new ServiceCatalog(async () => [route]), () => ({ kind: "anonymous" }), (outcome) => outcomes.push(outcome), {
    ends: new RequestEndWatch({ waitMs: 500 }),
    endsAtOnce: () => waiting,
  });
  const send = () => hurried.handle(new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: BODY }));
  const before = seen.length;
  expect(await (await send()).text()).toBe(events({}).join(""));
  expect(seen[before]).toEqual({ body: expect.stringContaining('"include_usage":true'), requestId: null });
  expect(outcomes.at(-1)).toMatchObject({ status: 200, end: "complete", streamEnd: "read", usage: { promptTokens: 7, completionTokens: 3 } });
  expect(hurried.balancer.count("svc-1")).toBe(0);
  // Nobody waiting: named again (once this router's watch has asked the service), its end from the records.
  waiting = false;
  for (let tries = 0; tries < 50 && !seen.at(-1)!.requestId; tries++) {
    await (await send()).text();
    await Bun.sleep(20);
  }
  expect(seen.at(-1)!.requestId).toMatch(/^[0-9a-f-]{36}$/);
});
