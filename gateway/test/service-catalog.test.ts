/** The gateway's copy of the service routes (ServiceCatalog): read at most once a second, and again for a refusal when older than a moment. */
import { expect, test } from "bun:test";
import type { ServiceRoute } from "@svc/contracts";
import { ServiceCatalog } from "../src/openai/catalog";

const route = (id: string): ServiceRoute => ({
  id,
  name: id,
  task: "text-generation",
  model: "owner/model",
  revision: "0123456789abcdef",
  profile: "default",
  engine: "docker",
  status: "HEALTHY",
  server: "svc",
  url: `http://127.0.0.1:1/${id}`,
  apiKey: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  onDemand: false,
  waits: false,
});

test("the list is reused for a second; fresh() reads it again when it is older than a moment", async () => {
  let reads = 0;
  const catalog = new ServiceCatalog(async () => (reads++, [route("a")]));
  await catalog.routes();
  await catalog.routes();
  await catalog.fresh();
  expect(reads).toBe(1);
  await Bun.sleep(150);
  await catalog.fresh();
  expect(reads).toBe(2);
  await Bun.sleep(1100);
  await catalog.routes();
  expect(reads).toBe(3);
  // Told that a service changed (through the API, or one did not answer): the next request reads it anew.
  catalog.invalidate();
  await catalog.routes();
  expect(reads).toBe(4);
});
