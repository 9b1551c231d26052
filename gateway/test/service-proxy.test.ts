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
