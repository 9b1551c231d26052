import { afterAll, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import type { ServiceRecord } from "@svc/contracts";
import { ServiceProxy } from "../src/proxy/service";
import type { OnDemandStarts } from "../src/on-demand/ensure-serving";

const service = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => Response.json({ path: new URL(request.url).pathname }) });
afterAll(() => service.stop(true));

const ID = "7d3c1a52-0000-4000-8000-000000000001";

function proxyWithLookups() {
  let lookups = 0;
  const record = { id: ID, name: "chat", status: "HEALTHY", url: `http://127.0.0.1:${service.port}` } as unknown as ServiceRecord;
  const client = {
    services: {
      get: async () => {
        lookups++;
        await Bun.sleep(20);
        return record;
      },
    },
  } as unknown as SvcClient;
  const proxy = new ServiceProxy(client, undefined, { touch() {} }, {} as OnDemandStarts);
  return { proxy, lookups: () => lookups };
}

test("requests arriving together for a service not yet looked up cost one lookup, and all get through", async () => {
  const { proxy, lookups } = proxyWithLookups();
  const answers = await Promise.all(Array.from({ length: 16 }, () => proxy.handle(new Request(`http://localhost:8000/proxy/${ID}/v1/models`))));
  expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
  expect(await answers[0]!.json()).toEqual({ path: "/v1/models" });
  expect(lookups()).toBe(1);
  await proxy.handle(new Request(`http://localhost:8000/proxy/${ID}/health`));
  expect(lookups()).toBe(1);
});

test("a request counts in flight on its service until its answer is over: a stream to its end or until the caller leaves, a short answer at once", async () => {
  let release: (() => void) | undefined;
  const streaming = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => {
      if (new URL(request.url).pathname === "/short") return Response.json({ ok: true });
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
          release = () => {
            controller.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
            controller.close();
          };
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  try {
    const record = { id: ID, name: "chat", status: "HEALTHY", url: `http://127.0.0.1:${streaming.port}` } as unknown as ServiceRecord;
    const client = { services: { get: async () => record } } as unknown as SvcClient;
    const counts = new Map<string, number>();
    const touched: string[] = [];
    const counter = {
      begin(id: string) {
        counts.set(id, (counts.get(id) ?? 0) + 1);
        return () => counts.set(id, counts.get(id)! - 1);
      },
    };
    const proxy = new ServiceProxy(client, undefined, { touch: (id: string) => void touched.push(id) }, {} as OnDemandStarts, counter);

    const short = await proxy.handle(new Request(`http://localhost:8000/proxy/${ID}/short`));
    expect(await short.json()).toEqual({ ok: true });
    expect(counts.get(ID)).toBe(0);

    const stream = await proxy.handle(new Request(`http://localhost:8000/proxy/${ID}/stream`));
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    expect(counts.get(ID)).toBe(1);
    const before = touched.length;
    release!();
    let text = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += new TextDecoder().decode(read.value);
    expect(text).toBe("data: [DONE]\n\n");
    expect(counts.get(ID)).toBe(0);
    // Its end restarts the idle clock.
    expect(touched.length).toBe(before + 1);

    const left = await proxy.handle(new Request(`http://localhost:8000/proxy/${ID}/stream`));
    const leaving = left.body!.getReader();
    await leaving.read();
    expect(counts.get(ID)).toBe(1);
    await leaving.cancel();
    expect(counts.get(ID)).toBe(0);
  } finally {
    streaming.stop(true);
  }
});
