/**
 * Fair share through the /v1 router, against stand-in runtimes that take N requests at once and
 * hold each answer until the test lets it go: never more than N at once reach a replica; a key
 * with many streamed chats waiting does not hold back another key's one; the queue's 429 with
 * Retry-After; a caller that goes away leaves the queue; /api/queues' report; fair share off.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceRoute } from "@svc/contracts";
import { FAIR_SHARE_DEFAULTS, type FairShareSettings } from "@svc/platform";
import { eventually } from "@svc/testing";
import { openGatewayDb } from "../src/db/connection";
import { KeyRing } from "../src/keys/service";
import { v1Authenticator } from "../src/keys/v1-auth";
import { ServiceCatalog } from "../src/openai/catalog";
import { READY_PER_REPLICA } from "../src/openai/fair-share/capacity";
import { FairShareGate } from "../src/openai/fair-share/gate";
import { queueReport } from "../src/openai/fair-share/view";
import { ReplicaChooser } from "../src/openai/replica-choice";
import { OpenAiRouter } from "../src/openai/service";
import { standInRoute, standInServer } from "./stand-in-route";

/** A stand-in runtime answering streamed chats, each held until `release` (or all of them with `releaseAll`); counts how many it holds at most. */
function heldRuntime() {
  const held: Array<{ key: string; go: () => void }> = [];
  let most = 0;
  const server = standInServer(async (request) => {
    const body = (await request.json()) as { messages: Array<{ content: string }> };
    const tag = body.messages[0]!.content;
    await new Promise<void>((go) => {
      held.push({ key: tag, go });
      most = Math.max(most, held.length);
    });
    const chunk = { id: "x", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: tag } }] };
    return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** The tags of the requests it holds now, in arrival order. */
    holding: () => held.map((entry) => entry.key),
    most: () => most,
    /** Lets the oldest held request answer. */
    release() {
      held.shift()?.go();
    },
    releaseAll() {
      held.splice(0).forEach((entry) => entry.go());
    },
    resetMost() {
      most = held.length;
    },
    stop: () => server.stop(true),
  };
}

const runtime = heldRuntime();
const home = mkdtempSync(join(tmpdir(), "svc-fair-share-"));
const db = openGatewayDb(home);
const keys = new KeyRing(db);
const TOKEN = "the-svc-token-0123456789";
const f = keys.create({ name: "f" }).key;
const i = keys.create({ name: "i" }).key;
afterAll(() => {
  runtime.releaseAll();
  runtime.stop();
  rmSync(home, { recursive: true, force: true });
});

const routes: ServiceRoute[] = [standInRoute({ id: "r1", url: runtime.url, capacity: 2 })];
/** What the replica is given before requests wait: its capacity and one ready to start. */
const HELD = 2 + READY_PER_REPLICA;

function gateway(settings: Partial<FairShareSettings> = {}, services = routes) {
  const chooser = new ReplicaChooser();
  const catalog = new ServiceCatalog(async () => services);
  const slots = new FairShareGate({ balancer: chooser.balancer, settings: { ...FAIR_SHARE_DEFAULTS, ...settings }, routes: () => catalog.routes() });
  const router = new OpenAiRouter(catalog, v1Authenticator(keys, TOKEN), () => {}, { slots, chooser });
  /** A streamed chat, read to its end as a client would: its status, headers and text. */
  const chat = async (key: string, tag: string, signal?: AbortSignal, model = "owner/m") => {
    const answer = await router.handle(
      new Request("http://localhost:8000/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: tag }] }),
        signal,
      }),
    );
    return { status: answer.status, headers: answer.headers, text: await answer.text() };
  };
  const waiting = () => queueReport(slots, (id) => chooser.balancer.count(id)).models[0]?.waiting ?? 0;
  return { chat, waiting, report: (model?: string) => queueReport(slots, (id) => chooser.balancer.count(id), model) };
}

/** Lets the runtime's held requests answer one at a time until `done`, reading each answer to its end. */
async function serveUntil(done: () => boolean) {
  await eventually(() => {
    if (done()) return true;
    runtime.release();
    return false;
  }, 30_000, "the queue to move", 10);
}

describe("a model whose replicas are all busy", () => {
  test("never more than its capacity (and one ready) reach the replica; key i's one chat goes before key f's queue drains; every request is answered", async () => {
    const { chat, waiting } = gateway();
    runtime.resetMost();
    const fAnswers = Array.from({ length: 10 }, (_, n) => chat(f, `f${n}`));
    await eventually(() => runtime.holding().length === HELD && waiting() === 10 - HELD, 10_000, "the replica full, the rest waiting");
    const iAnswer = chat(i, "i0");
    await eventually(() => waiting() === 11 - HELD, 10_000, "i waiting too");
    // Two slots free up: the first goes to f's oldest waiting request, the second to i's (its turn), not to f's next ones.
    runtime.release();
    runtime.release();
    await eventually(() => runtime.holding().length === HELD, 10_000, "the next two let go");
    expect(runtime.holding()).toContain("i0");
    await serveUntil(() => waiting() === 0 && runtime.holding().length === 0);
    const answers = await Promise.all([...fAnswers, iAnswer]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(11).fill(200));
    for (const answer of answers) expect(answer.text).toContain("[DONE]");
    expect(runtime.most()).toBe(HELD);
  });

  test("past the queue time limit: 429 with Retry-After and rate_limit_exceeded; a caller that goes away leaves the queue at once", async () => {
    const { chat, waiting, report } = gateway({ queueSeconds: 1 });
    const running = Array.from({ length: HELD }, (_, n) => chat(f, `f-${n}`));
    await eventually(() => runtime.holding().length === HELD, 10_000, "the replica full");
    const controller = new AbortController();
    const leaving = chat(i, "i-leaves", controller.signal);
    await eventually(() => waiting() === 1, 10_000, "one waiting");
    controller.abort();
    await leaving.catch(() => undefined);
    expect(waiting()).toBe(0);
    const refused = await chat(f, "f-c");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(refused.text) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toContain("owner/m");
    expect(report("owner/m").models[0]).toMatchObject({ model: "owner/m", capacity: 2, refused: { timeout: 1, full: 0 } });
    expect(report("other/model").models).toEqual([]);
    runtime.releaseAll();
    await Promise.all(running);
  });

  test("a request naming one service waits in its model's queue, and then goes to that service only", async () => {
    const other = heldRuntime();
    try {
      const two = [standInRoute({ id: "r1", name: "first", url: runtime.url, capacity: 1 }), standInRoute({ id: "r2", name: "second", url: other.url, capacity: 1 })];
      const { chat, waiting } = gateway({}, two);
      const held = 1 + READY_PER_REPLICA;
      const filling = Array.from({ length: 2 * held }, (_, n) => chat(f, `fill${n}`));
      await eventually(() => runtime.holding().length === held && other.holding().length === held, 10_000, "both replicas full");
      const named = chat(i, "named", undefined, "second");
      await eventually(() => waiting() === 1, 10_000, "the named request waiting");
      // The slot frees on the first service; the request goes to the one it named.
      runtime.release();
      await eventually(() => other.holding().includes("named"), 10_000, "the named request at its service");
      expect(runtime.holding()).not.toContain("named");
      runtime.releaseAll();
      other.releaseAll();
      await Promise.all([...filling, named]);
    } finally {
      other.releaseAll();
      other.stop();
    }
  });

  test("with fair share off, every request goes to the replica at once", async () => {
    const { chat, waiting } = gateway({ enabled: false });
    runtime.resetMost();
    const answers = Array.from({ length: 6 }, (_, n) => chat(f, `off${n}`));
    await eventually(() => runtime.holding().length === 6, 10_000, "all six at the replica");
    expect(waiting()).toBe(0);
    runtime.releaseAll();
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
  });
});
