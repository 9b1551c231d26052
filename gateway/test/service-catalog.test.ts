/**
 * The gateway's copy of the service routes (ServiceCatalog): with a feed it follows the
 * orchestrator's changes through a long poll, so requests do not wait for a look-up; when the feed
 * fails or does not wait, it reads the list at most once a second, as without one.
 */
import { expect, test } from "bun:test";
import type { ServiceRoute } from "@svc/contracts";
import { eventually } from "@svc/testing";
import { ServiceCatalog, type RoutesFeed, type TaggedRoutes } from "../src/openai/catalog";

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

/** A feed whose list the test changes; `changed` waits for that (or its wait's end) as the orchestrator does. */
function scriptedFeed() {
  let version = 1;
  let routes = [route("a")];
  let wake: (() => void) | undefined;
  const feed = {
    reads: 0,
    waits: 0,
    failing: false,
    /** Answers at once with the list it has (an orchestrator that does not wait). */
    eager: false,
    set(next: ServiceRoute[]) {
      routes = next;
      version++;
      wake?.();
    },
    async read(): Promise<TaggedRoutes> {
      feed.reads++;
      if (feed.failing) throw new Error("orchestrator-svc is down");
      return { routes, etag: `"${version}"` };
    },
    async changed(etag: string, waitMs: number, signal: AbortSignal): Promise<TaggedRoutes | null> {
      feed.waits++;
      if (feed.failing) throw new Error("orchestrator-svc is down");
      if (feed.eager) return { routes, etag: `"${version}"` };
      if (etag === `"${version}"`) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          signal.addEventListener("abort", () => wake!());
        });
      }
      if (signal.aborted) throw new Error("aborted");
      if (feed.failing) throw new Error("orchestrator-svc is down");
      return etag === `"${version}"` ? null : { routes, etag: `"${version}"` };
    },
  } satisfies RoutesFeed & Record<string, unknown>;
  return feed;
}

test("with a feed, the list is read once and then follows each change as it is written: no request waits for a look-up", async () => {
  const feed = scriptedFeed();
  const catalog = new ServiceCatalog(feed, () => [route("outside")]);
  try {
    expect((await catalog.routes()).map((r) => r.id)).toEqual(["a", "outside"]);
    await Bun.sleep(1100);
    expect((await catalog.routes()).map((r) => r.id)).toEqual(["a", "outside"]);
    expect(feed.reads).toBe(1);
    feed.set([route("a"), route("b")]);
    await eventually(async () => (await catalog.routes()).length === 3);
    expect((await catalog.routes()).map((r) => r.id)).toEqual(["a", "b", "outside"]);
    expect(feed.reads).toBe(1);
    // Told that a service changed (through the API, or one did not answer): the next request reads the list anew.
    catalog.invalidate();
    await catalog.routes();
    expect(feed.reads).toBe(2);
  } finally {
    catalog.stop();
  }
});

test("when the feed fails, the list is read at most once a second until following works again", async () => {
  const feed = scriptedFeed();
  const catalog = new ServiceCatalog(feed);
  try {
    await catalog.routes();
    feed.failing = true;
    feed.set([route("a"), route("b")]);
    await expect(eventually(async () => (await catalog.routes().catch(() => [])).length === 0, 2000)).resolves.toBeUndefined();
    feed.failing = false;
    expect((await catalog.routes()).map((r) => r.id)).toEqual(["a", "b"]);
    const reads = feed.reads;
    expect(await catalog.routes()).toHaveLength(2);
    expect(feed.reads).toBe(reads);
    // Following again (after a second): the next change comes without a read.
    await Bun.sleep(1100);
    await catalog.routes();
    const settled = feed.reads;
    feed.set([route("c")]);
    await eventually(async () => (await catalog.routes())[0]!.id === "c");
    expect(feed.reads).toBe(settled);
  } finally {
    catalog.stop();
  }
});

test("an orchestrator that answers at once with the same list is not asked in a loop: the list is read once a second instead", async () => {
  const feed = scriptedFeed();
  feed.eager = true;
  const catalog = new ServiceCatalog(feed);
  try {
    await catalog.routes();
    await Bun.sleep(300);
    expect(feed.waits).toBe(1);
    await catalog.routes();
    expect(feed.reads).toBe(2);
  } finally {
    catalog.stop();
  }
});

test("without a feed the list is reused for a second; fresh() reads it again when it is older than a moment", async () => {
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
});
