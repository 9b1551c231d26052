/**
 * The fair-share gate over the real balancer's counts, without HTTP: no wait while a replica has a
 * free slot, a freed slot going to the next in turn, the bounds (a key's queue length, the queue
 * time limit: 429 with Retry-After), a caller that goes away, a replica added meanwhile, models
 * never queued (capacity unknown, fair share off), and the waiting counts the scaler gets.
 */
import { describe, expect, test } from "bun:test";
import type { ServiceRoute } from "@svc/contracts";
import { FAIR_SHARE_DEFAULTS, type FairShareSettings } from "@svc/platform";
import { LeastInFlight } from "../src/openai/balancer";
import type { Caller } from "../src/openai/caller";
import { READY_PER_REPLICA } from "../src/openai/fair-share/capacity";
import { FairShareGate } from "../src/openai/fair-share/gate";
import { queueReport } from "../src/openai/fair-share/view";
import { usableReplicas } from "../src/openai/replica-choice";
import { standInRoute } from "./stand-in-route";

const MODEL = "owner/m";
const key = (name: string, weight = 1): Caller => ({ kind: "key", id: `id-${name}`, name, models: null, policy: { limits: {} as never, tier: "default", weight } });
const replica = (id: string, capacity: number | null = 2, fields: Partial<ServiceRoute> = {}) => standInRoute({ id, url: `http://127.0.0.1:1/${id}`, capacity, ...fields });

function rig(settings: Partial<FairShareSettings> = {}, routes?: () => Promise<ServiceRoute[]>) {
  const balancer = new LeastInFlight();
  const gate = new FairShareGate({ balancer, settings: { ...FAIR_SHARE_DEFAULTS, ...settings }, routes });
  /** Asks to go to `services` as `caller`; once let go it begins on the least busy usable one (as forwarding does), and `end()` ends it. */
  const ask = (services: ServiceRoute[], caller: Caller, options: { tier?: "priority" | "default" | "flex"; signal?: AbortSignal } = {}) => {
    const state: { outcome?: "went" | Response | "left"; end?: () => void } = {};
    const go = (list: ServiceRoute[]) => {
      state.outcome = "went";
      const target = usableReplicas(list).reduce((least, service) => (balancer.count(service.id) < balancer.count(least.id) ? service : least));
      state.end = balancer.begin(target.id);
    };
    const waited = gate.wait(MODEL, services, caller, options.tier ?? "default", options.signal ?? new AbortController().signal);
    const settled = waited === undefined
      ? (go(services), Promise.resolve())
      : waited.then((result) => {
          if (result instanceof Response) state.outcome = result;
          else if (result === undefined) state.outcome = "left";
          else go(result);
        });
    return { state, settled, waited: waited !== undefined };
  };
  const report = () => queueReport(gate, (id) => balancer.count(id)).models.find((queue) => queue.model === MODEL);
  return { balancer, gate, ask, report };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** What a replica of `capacity` holds before requests for it wait: its capacity and one ready to start. */
const holds = (capacity: number) => capacity + READY_PER_REPLICA;

describe("waiting for a slot", () => {
  test("requests go at once while a replica has a free slot (its capacity, and one ready to start); past that on every replica they wait, and each one that ends lets the next go", async () => {
    const { ask, report } = rig();
    const services = [replica("r1"), replica("r2")];
    const first = Array.from({ length: 2 * holds(2) }, () => ask(services, key("f")));
    expect(first.some((request) => request.waited)).toBe(false);
    const next = ask(services, key("f"));
    expect(next.waited).toBe(true);
    expect(report()).toMatchObject({ capacity: 4, inFlight: 2 * holds(2), waiting: 1, keys: [{ key: "f", tier: "default", weight: 1, waiting: 1 }] });
    first[0]!.state.end!();
    await next.settled;
    expect(next.state.outcome).toBe("went");
    expect(report()).toMatchObject({ inFlight: 2 * holds(2), waiting: 0, keys: [] });
  });

  test("the slot that frees goes to the key whose turn it is: a key with one request waiting goes before the rest of a busy key's", async () => {
    const { ask } = rig();
    const services = [replica("r1", 1)];
    const running = Array.from({ length: holds(1) }, () => ask(services, key("f")));
    const queued = Array.from({ length: 5 }, () => ask(services, key("f")));
    const single = ask(services, key("i"));
    const named = [...queued.map((request, i) => ({ request, name: `f${i}` })), { request: single, name: "i" }];
    const order: string[] = [];
    for (const { request, name } of named) void request.settled.then(() => order.push(name));
    let current = running[0]!;
    for (let i = 0; i < 6; i++) {
      current.state.end!();
      await tick();
      current = named.find(({ name }) => name === order.at(-1))!.request;
    }
    // f's first waiting request came before i's: then it is i's turn, then the rest of f's.
    expect(order).toEqual(["f0", "i", "f1", "f2", "f3", "f4"]);
  });

  test("a key's queue is bounded: past its length a request is refused at once with 429, rate_limit_exceeded and Retry-After; another key still queues", async () => {
    const { ask, report } = rig({ perKey: 2 });
    const services = [replica("r1", 1)];
    for (let i = 0; i < holds(1) + 2; i++) ask(services, key("f"));
    const refused = ask(services, key("f"));
    await refused.settled;
    const answer = refused.state.outcome as Response;
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toContain("saturated");
    expect(body.error.message).toContain("the key 'f' already has 2 requests waiting");
    expect(ask(services, key("i")).waited).toBe(true);
    expect(report()).toMatchObject({ waiting: 3, refused: { full: 1, timeout: 0 } });
  });

  test("past the queue time limit a request is refused with 429 and Retry-After, saying how long it waited", async () => {
    const { ask, report } = rig({ queueSeconds: 1 });
    const services = [replica("r1", 1)];
    for (let i = 0; i < holds(1); i++) ask(services, key("f"));
    const waiting = ask(services, key("f"));
    await waiting.settled;
    const answer = waiting.state.outcome as Response;
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("1");
    const body = (await answer.json()) as { error: { code: string; message: string; type: string } };
    expect(body.error).toMatchObject({ code: "rate_limit_exceeded" });
    expect(body.error.message).toContain("waited 1 s");
    expect(body.error.message).toContain("their 1 requests at once in flight");
    expect(report()).toMatchObject({ waiting: 0, refused: { timeout: 1, full: 0 } });
  });

  test("a caller that goes away leaves the queue at once", async () => {
    const { ask, report } = rig();
    const services = [replica("r1", 1)];
    for (let i = 0; i < holds(1); i++) ask(services, key("f"));
    const controller = new AbortController();
    const leaving = ask(services, key("f"), { signal: controller.signal });
    ask(services, key("g"));
    expect(report()!.waiting).toBe(2);
    controller.abort();
    await leaving.settled;
    expect(leaving.state.outcome).toBe("left");
    expect(report()).toMatchObject({ waiting: 1, keys: [{ key: "g" }] });
  });

  test("a replica added meanwhile takes from the queue at once (the services are read again while requests wait), and they go to its list", async () => {
    let routes = [replica("r1", 1)];
    const { ask, report } = rig({}, async () => routes);
    for (let i = 0; i < holds(1); i++) ask(routes, key("f"));
    const waiting = ask(routes, key("f"));
    routes = [replica("r1", 1), replica("r2", 1)];
    await waiting.settled;
    expect(waiting.state.outcome).toBe("went");
    expect(report()).toMatchObject({ capacity: 2, inFlight: holds(1) + 1, waiting: 0 });
  });

  test("a draining replica's free slots do not count while another can take requests", () => {
    const { ask } = rig();
    const services = [replica("r1", 1), replica("r2", 4, { deployment: { id: "d", name: "d", routing: "least-busy", draining: true } })];
    for (let i = 0; i < holds(1); i++) ask(services, key("f"));
    expect(ask(services, key("f")).waited).toBe(true);
  });
});

describe("never waiting", () => {
  test("a model whose capacity is not known (an outside endpoint) never waits", () => {
    const { ask } = rig();
    const services = [replica("endpoint:e", null, { engine: "outside" })];
    expect(Array.from({ length: 50 }, () => ask(services, key("f")).waited).some(Boolean)).toBe(false);
  });

  test("with fair share off, requests go as they come however busy", () => {
    const { ask, report } = rig({ enabled: false });
    const services = [replica("r1", 1)];
    expect(Array.from({ length: 10 }, () => ask(services, key("f")).waited).some(Boolean)).toBe(false);
    expect(report()).toBeUndefined();
  });
});

test("requests waiting count per deployment (shared among the deployments of the model), for the scaler", () => {
  const { ask, gate } = rig();
  const of = (id: string) => ({ deployment: { id, name: id, routing: "least-busy" as const, draining: false } });
  const services = [replica("a-1", 1, of("a")), replica("b-1", 1, of("b"))];
  for (let i = 0; i < 2 * holds(1) + 5; i++) ask(services, key("f"));
  expect(Object.fromEntries(gate.waitingByDeployment())).toEqual({ a: 3, b: 2 });
});
