/**
 * The routes list's long poll (SERVICE_ROUTES_PATH with If-None-Match and `wait_ms`), which keeps
 * the gateway's copy current: the answer comes as soon as a write changes the list, 304 when the
 * wait ends without one, and a write that leaves the list as it was does not end the wait.
 */
import { expect, test } from "bun:test";
import { ROUTES_MAX_WAIT_MS, SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import { serviceRoutesController } from "../src/services/routes";
import { deploymentHarness } from "./deployment-harness";

test("a wait on the list the caller has ends as soon as a write changes it, with the new list and tag; else 304 when the wait is over", async () => {
  const h = deploymentHarness();
  const routes = serviceRoutesController(h.store, h.deploymentStore);
  const get = (headers: Record<string, string> = {}, query = "") => routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}${query}`, { headers }));

  const first = await get();
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual([]);
  const etag = first.headers.get("etag")!;
  expect(etag).toMatch(/^"\w+"$/);
  expect((await get()).headers.get("etag")).toBe(etag);

  // Nothing changes: 304 once the wait is over, not before.
  let started = performance.now();
  const unchanged = await get({ "if-none-match": etag }, "?wait_ms=200");
  expect(unchanged.status).toBe(304);
  expect(unchanged.headers.get("etag")).toBe(etag);
  expect(performance.now() - started).toBeGreaterThanOrEqual(190);

  // A launch is a write that changes the list: the wait ends with it.
  started = performance.now();
  const waiting = get({ "if-none-match": etag }, "?wait_ms=20000");
  await Bun.sleep(50);
  const { deployment } = await h.run({ replicas: "1..2" });
  const changed = await waiting;
  expect(performance.now() - started).toBeLessThan(5000);
  expect(changed.status).toBe(200);
  const list = (await changed.json()) as ServiceRoute[];
  expect(list.map((route) => route.deployment?.id)).toEqual([deployment!.id]);
  const next = changed.headers.get("etag")!;
  expect(next).not.toBe(etag);

  // A write the list does not show (the time of a service's last request) does not end the wait.
  const quiet = get({ "if-none-match": next }, "?wait_ms=300");
  await Bun.sleep(50);
  h.store.recordActivity([{ id: list[0]!.id, lastRequestAt: new Date().toISOString() }]);
  expect((await quiet).status).toBe(304);

  // A tag from before the last change is answered at once.
  started = performance.now();
  const behind = await get({ "if-none-match": etag }, "?wait_ms=20000");
  expect(behind.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(1000);
});

test("a caller that goes away ends its wait (a stopping orchestrator is not held by it)", async () => {
  const h = deploymentHarness();
  const routes = serviceRoutesController(h.store, h.deploymentStore);
  const etag = (await routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}`))).headers.get("etag")!;
  const caller = new AbortController();
  const started = performance.now();
  const waiting = routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}?wait_ms=20000`, { headers: { "if-none-match": etag }, signal: caller.signal }));
  await Bun.sleep(50);
  caller.abort();
  await waiting;
  expect(performance.now() - started).toBeLessThan(2000);
});

test("a wait longer than the longest allowed is refused with a 4xx", async () => {
  const h = deploymentHarness();
  const routes = serviceRoutesController(h.store, h.deploymentStore);
  const response = await routes.handle(new Request(`http://orchestrator${SERVICE_ROUTES_PATH}?wait_ms=${ROUTES_MAX_WAIT_MS + 1}`));
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
});
