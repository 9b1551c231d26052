import { expect, test } from "bun:test";
import type { ServiceRoute } from "@svc/contracts";
import { ServiceCatalog } from "../src/openai/catalog";

function countingCatalog() {
  const calls = { count: 0 };
  const catalog = new ServiceCatalog(async () => {
    calls.count++;
    return [{ id: `svc-${calls.count}` } as ServiceRoute];
  });
  return { catalog, calls };
}

test("after a request, the list is read again in the background as it expires, so a later burst does not wait for a look-up", async () => {
  const { catalog, calls } = countingCatalog();
  try {
    await catalog.routes();
    expect(calls.count).toBe(1);
    // Quiet for longer than the list's 1 s lifetime: it was read again meanwhile.
    await Bun.sleep(2600);
    expect(calls.count).toBeGreaterThanOrEqual(3);
    const before = calls.count;
    const routes = await catalog.routes();
    expect(calls.count).toBe(before);
    expect(routes[0]!.id).toBe(`svc-${before}`);
  } finally {
    catalog.stop();
  }
});

test("stop() ends the background reads, and a list asked for after it is read at once", async () => {
  const { catalog, calls } = countingCatalog();
  await catalog.routes();
  catalog.stop();
  await Bun.sleep(1300);
  expect(calls.count).toBe(1);
  await catalog.routes();
  expect(calls.count).toBe(2);
  catalog.stop();
});

test("a background read that fails leaves the next request to look up again (and say so)", async () => {
  let fail = false;
  let calls = 0;
  const catalog = new ServiceCatalog(async () => {
    calls++;
    if (fail) throw new Error("orchestrator-svc is down");
    return [];
  });
  try {
    await catalog.routes();
    fail = true;
    await Bun.sleep(1300);
    expect(calls).toBe(2);
    await expect(catalog.routes()).rejects.toThrow("orchestrator-svc is down");
  } finally {
    catalog.stop();
  }
});
