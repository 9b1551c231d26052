/** The gateway's copy of the service routes (ServiceCatalog): read at most once a second, and again for a refusal when older than a moment. */
import { expect, setSystemTime, test } from "bun:test";
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

test("in use, the list is read again before it expires, and no request waits for that read", async () => {
  let reads = 0;
  let release: (() => void) | undefined;
  const catalog = new ServiceCatalog(async () => {
    reads++;
    if (reads > 1) await new Promise<void>((resolve) => (release = resolve));
    return [route(`read-${reads}`)];
  });
  const start = Date.now();
  expect((await catalog.routes())[0]!.id).toBe("read-1");
  try {
    // The clock is set (a sleep could overshoot the second on a loaded machine).
    setSystemTime(start + 800);
    // Old enough to read ahead: this request gets the list it has at once, and a read begins.
    expect((await catalog.routes())[0]!.id).toBe("read-1");
    expect(reads).toBe(2);
    // Another request meanwhile joins no second read and does not wait either.
    expect((await catalog.routes())[0]!.id).toBe("read-1");
    expect(reads).toBe(2);
    release!();
    await Bun.sleep(10);
    expect((await catalog.routes())[0]!.id).toBe("read-2");
    expect(reads).toBe(2);
  } finally {
    setSystemTime();
  }
});

test("a list past its second is never used: after a quiet second the request waits for a new one", async () => {
  let reads = 0;
  const catalog = new ServiceCatalog(async () => {
    reads++;
    await Bun.sleep(20);
    return [route(`read-${reads}`)];
  });
  await catalog.routes();
  await Bun.sleep(1050);
  expect((await catalog.routes())[0]!.id).toBe("read-2");
});

test("a read under way when the list is invalidated is not used by the requests after", async () => {
  let reads = 0;
  const releases: Array<() => void> = [];
  const catalog = new ServiceCatalog(async () => {
    const n = ++reads;
    await new Promise<void>((resolve) => releases.push(resolve));
    return [route(`read-${n}`)];
  });
  const before = catalog.routes();
  // A service changed while that read was out: the next request reads anew and does not take the older answer.
  catalog.invalidate();
  const after = catalog.routes();
  expect(reads).toBe(2);
  releases[0]!();
  expect((await before)[0]!.id).toBe("read-1");
  releases[1]!();
  expect((await after)[0]!.id).toBe("read-2");
  // The older read, ending first, did not become the list kept.
  expect((await catalog.routes())[0]!.id).toBe("read-2");
  expect(reads).toBe(2);
});
