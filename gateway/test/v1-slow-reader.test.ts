/**
 * A slow reader behind /v1: a client that reads nothing of a stream far larger than the loopback
 * socket buffers (1–2 MB per connection) paces the service's stream — the gateway pulls from the
 * service only as fast as the client's socket takes bytes, so what it holds stays bounded — and
 * once the client reads again, the whole stream arrives intact. So for a stream read on its way
 * (its usage taken from it) and one passed on untouched (its end recorded by the service).
 */
import { afterAll, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { eventually } from "@svc/testing";
import { ServiceCatalog } from "../src/openai/catalog";
import { RequestEnds, requestEndsRoute } from "@svc/runtime-common";
import { OpenAiRouter } from "../src/openai/service";
import { standInRoute } from "./stand-in-route";

const EVENT = `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "x".repeat(16_000) } }] })}\n\n`;
const EVENTS = 8_000; // ~128 MB: many times what the buffers on the way hold
const TOTAL = EVENT.length * EVENTS + "data: [DONE]\n\n".length;
/**
 * What the buffers between the service and the client may hold: the sockets of both hops (their
 * sizes grow with the kernel's autotuning, up to tcp_rmem's maximum: 9–25 MB were seen in all) and
 * Bun's own; far below the stream, which a gateway that did not pace it would take in whole.
 */
const BOUND = TOTAL / 2;

/**
 * A stand-in service streaming `max_tokens` events (EVENTS without it); `keepsRecords`: it records
 * each named stream's end as svc's runtime does, so the gateway passes the stream on untouched,
 * else the gateway reads the stream on its way.
 */
function pacedService(keepsRecords: boolean) {
  const records = new RequestEnds();
  const state = { produced: 0, named: false };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      if (request.method !== "POST") return keepsRecords ? requestEndsRoute(records, undefined).handle(request) : new Response("not found", { status: 404 });
      const events = ((await request.json()) as { max_tokens?: number }).max_tokens ?? EVENTS;
      const report = records.reporter(request);
      state.named ||= report !== undefined;
      const encoder = new TextEncoder();
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === events) {
            report?.("complete", { promptTokens: 1, completionTokens: events });
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
            controller.close();
            return;
          }
          sent++;
          state.produced += EVENT.length;
          controller.enqueue(encoder.encode(EVENT));
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { server, state, route: standInRoute({ id: `id-${keepsRecords}`, name: `s-${keepsRecords}`, model: `owner/big-${keepsRecords}`, url: `http://127.0.0.1:${server.port}` }) };
}

const services = [pacedService(false), pacedService(true)];
const router = new OpenAiRouter(new ServiceCatalog(async () => services.map((service) => service.route)), () => ({ kind: "anonymous" }), () => {});
const gateway = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (request, server) => router.handle(request, server) });

afterAll(() => {
  gateway.stop(true);
  for (const service of services) service.server.stop(true);
});

test.each([
  ["read on its way", services[0]!],
  ["passed on untouched (the service keeps records of its streams' ends)", services[1]!],
])("a client that reads nothing paces the service's stream, %s; the stream then arrives whole", async (_, { route, state }) => {
  const model = route.model;
  // Until the gateway knows the service keeps records, its streams are read on their way.
  if (route.id === services[1]!.route.id) {
    await eventually(
      async () => {
        const small = await fetch(`http://127.0.0.1:${gateway.port}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model, messages: [], stream: true, max_tokens: 1 }) });
        await small.text();
        return state.named;
      },
      10_000,
      "a stream sent named",
    );
  }
  state.produced = 0;
  const body = JSON.stringify({ model, messages: [], stream: true, stream_options: { include_usage: true } });
  const socket: Socket = connect(gateway.port!, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.pause(); // reads nothing: the kernel's receive buffer fills, then the gateway's send buffer
  socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);

  // The stream starts, then stops once the buffers on the way are full: the produced count settles.
  await eventually(async () => state.produced > 0, 10_000, "the service's stream to start");
  let settled = -1;
  await eventually(
    async () => {
      const now = state.produced;
      const still = now === settled;
      settled = now;
      await Bun.sleep(300);
      return still;
    },
    20_000,
    "the service's stream to be held back by the client that reads nothing",
  );
  console.log(`held back after ${(state.produced / 1024 / 1024).toFixed(1)} MB of ${(TOTAL / 1024 / 1024).toFixed(1)} MB`);
  expect(state.produced).toBeLessThan(BOUND);
  // Still held back a while later (a pause of the machine could look settled).
  await Bun.sleep(1000);
  expect(state.produced).toBeLessThan(BOUND);

  // Reading again, the client gets every byte, and the service ends its stream.
  let received = 0;
  let tail = "";
  const done = new Promise<void>((resolve) => socket.on("end", () => resolve()));
  socket.on("data", (chunk: Buffer) => {
    received += chunk.length;
    tail = (tail + chunk.toString("latin1")).slice(-64);
  });
  socket.resume();
  await done;
  expect(state.produced).toBe(EVENT.length * EVENTS);
  expect(received).toBeGreaterThan(TOTAL);
  expect(tail).toContain("data: [DONE]\n\n");
  expect(tail.endsWith("0\r\n\r\n")).toBe(true); // the chunked body's last chunk
});
