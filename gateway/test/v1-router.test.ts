/**
 * /v1 routing against stand-in runtimes (Bun servers speaking the runtimes' chat API): choice of
 * service, the service's own key upstream, usage from answers and streams, the usage chunk the
 * gateway asked for kept from the client, retries where nothing started, caller aborts, keys.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceRoute } from "@svc/contracts";
import { eventually } from "@svc/testing";
import { openGatewayDb } from "../src/db/connection";
import { KeyRing } from "../src/keys/service";
import { v1Authenticator } from "../src/keys/v1-auth";
import { ServiceCatalog } from "../src/openai/catalog";
import type { V1Outcome } from "../src/openai/outcome";
import { OpenAiRouter } from "../src/openai/service";
import { NotServing } from "../src/on-demand/ensure-serving";
import { UsageStore } from "../src/usage/store";
import { standInServer } from "./stand-in-route";

interface Seen {
  authorization: string | null;
  body: Record<string, any>;
}

/** A stand-in runtime: answers chat like the text-generation runtime (usage chunk only when asked), holding each answer until `release`. */
function standIn(name: string) {
  const seen: Seen[] = [];
  const held: Array<() => void> = [];
  let cancelled = 0;
  let hold = false;
  const server = standInServer(async (request) => {
    const body = (await request.json()) as Record<string, any>;
    seen.push({ authorization: request.headers.get("authorization"), body });
    if (hold) await new Promise<void>((resolve) => held.push(resolve));
    const usage = { prompt_tokens: 7, total_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } };
    if (!body.stream) return Response.json({ id: "x", object: "chat.completion", model: `/snapshots/${name}`, choices: [{ index: 0, message: { role: "assistant", content: name } }], usage });
    const withUsage = body.stream_options?.include_usage === true;
    const chunk = (content: string) => ({ id: "x", object: "chat.completion.chunk", model: name, choices: [{ index: 0, delta: { content } }], ...(withUsage ? { usage: null } : {}) });
    const events = [chunk("a"), chunk("b"), chunk("c"), ...(withUsage ? [{ id: "x", object: "chat.completion.chunk", model: name, choices: [], usage }] : [])];
    const encoder = new TextEncoder();
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (body.slow) await Bun.sleep(30);
        if (i < events.length) controller.enqueue(encoder.encode(`data: ${JSON.stringify(events[i++])}\n\n`));
        else {
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        }
      },
      cancel() {
        cancelled++;
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    seen,
    cancelled: () => cancelled,
    holdAnswers(on: boolean) {
      hold = on;
      if (!on) held.splice(0).forEach((release) => release());
    },
    heldCount: () => held.length,
    stop: () => server.stop(true),
  };
}

const a1 = standIn("a1");
const a2 = standIn("a2");
const b = standIn("b");
const home = mkdtempSync(join(tmpdir(), "svc-v1-router-"));
afterAll(() => {
  for (const server of [a1, a2, b]) server.stop();
  rmSync(home, { recursive: true, force: true });
});

const route = (id: string, name: string, model: string, url: string | null, status = "HEALTHY", revision = "0123456789abcdef"): ServiceRoute => ({
  id,
  name,
  task: "text-generation",
  model,
  revision,
  profile: "default",
  engine: "docker",
  server: "svc",
  status,
  url,
  apiKey: `own-key-${name}`,
  createdAt: "2026-11-25T10:00:00.000Z",
  onDemand: false,
  waits: false,
});

let routes: ServiceRoute[] = [route("id-a1", "a1", "owner/a", a1.url), route("id-a2", "a2", "owner/a", a2.url), route("id-b", "b", "owner/b", b.url, "HEALTHY", "fedcba9876543210")];
const outcomes: V1Outcome[] = [];
const db = openGatewayDb(home);
const keys = new KeyRing(db);
const usage = new UsageStore(db, 30);
const catalog = new ServiceCatalog(async () => routes);
/** Changes the stand-in list of live services (and makes the router look again). */
function setRoutes(next: ServiceRoute[]) {
  routes = next;
  catalog.invalidate();
}
const router = new OpenAiRouter(catalog, v1Authenticator(keys, "the-svc-token-0123456789"), (outcome) => {
  outcomes.push(outcome);
  usage.record(outcome);
});

const TOKEN = "the-svc-token-0123456789";
const post = (body: unknown, init: { key?: string; signal?: AbortSignal; path?: string } = {}) =>
  router.handle(
    new Request(`http://localhost:8000${init.path ?? "/v1/chat/completions"}`, {
      method: "POST",
      headers: { authorization: `Bearer ${init.key ?? TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: init.signal,
    }),
  );
/** The outcome of the request just answered: reported when its body ended, which the test has read. */
const lastOutcome = async () => outcomes.at(-1)!;

describe("routing by model", () => {
  test("a repo id, repo@revision prefix or service name picks its service, which gets its own key, not the caller's", async () => {
    for (const model of ["owner/b", "owner/b@fedc", "b"]) {
      const response = await post({ model, messages: [] });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-svc-service")).toBe("id-b");
      expect(((await response.json()) as { model: string }).model).toBe("/snapshots/b");
      expect(b.seen.at(-1)!.authorization).toBe("Bearer own-key-b");
    }
  });

  test("an unknown model is a 404 naming the served ones; a starting one 503 with Retry-After; an ambiguous revision 400", async () => {
    const missing = await post({ model: "owner/none", messages: [] });
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("model_not_found");
    expect(body.error.message).toContain("owner/a, owner/b");
    const saved = routes;
    setRoutes([...saved, route("id-c", "c", "owner/c", null, "STARTING"), route("id-d1", "d1", "owner/d", b.url, "HEALTHY", "aaaa1"), route("id-d2", "d2", "owner/d", b.url, "HEALTHY", "aaaa2")]);
    try {
      const starting = await post({ model: "owner/c", messages: [] });
      expect(starting.status).toBe(503);
      expect(starting.headers.get("retry-after")).toBe("5");
      expect(((await starting.json()) as { error: { code: string } }).error.code).toBe("model_not_ready");
      expect((await post({ model: "owner/d@aaaa", messages: [] })).status).toBe(400);
      expect((await post({ model: "owner/d@aaaa2", messages: [] })).headers.get("x-svc-service")).toBe("id-d2");
    } finally {
      setRoutes(saved);
    }
    expect((await post({ messages: [] })).status).toBe(400);
  });

  test("the service with fewest requests in flight gets the next one; equals take turns", async () => {
    /** The service that answered, once the answer is read (until then it is in flight). */
    const servedBy = async () => {
      const response = await post({ model: "owner/a", messages: [] });
      await response.text();
      return response.headers.get("x-svc-service");
    };
    const served = [];
    for (let i = 0; i < 4; i++) served.push(await servedBy());
    expect(served).toEqual(["id-a1", "id-a2", "id-a1", "id-a2"]);
    a1.holdAnswers(true);
    const busy = post({ model: "owner/a", messages: [] });
    while (a1.heldCount() === 0) await Bun.sleep(5);
    const next = [];
    for (let i = 0; i < 3; i++) next.push(await servedBy());
    expect(next).toEqual(["id-a2", "id-a2", "id-a2"]);
    a1.holdAnswers(false);
    expect((await busy).status).toBe(200);
  });

  test("a service that does not answer is skipped: the request goes to another replica", async () => {
    const dead = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const deadUrl = `http://127.0.0.1:${dead.port}`;
    dead.stop(true);
    const saved = routes;
    setRoutes([route("id-0dead", "dead", "owner/a", deadUrl), route("id-a2", "a2", "owner/a", a2.url)]);
    try {
      for (let i = 0; i < 4; i++) expect((await post({ model: "owner/a", messages: [] })).headers.get("x-svc-service")).toBe("id-a2");
    } finally {
      setRoutes(saved);
    }
  });
});

describe("usage of answers and streams", () => {
  test("a JSON answer's usage is recorded", async () => {
    const response = await post({ model: "owner/b", messages: [] });
    await response.json();
    expect(await lastOutcome()).toMatchObject({ status: 200, model: "owner/b", serviceName: "b", end: "complete", usage: { promptTokens: 7, completionTokens: 3 } });
  });

  test("a stream the client asked no usage for: the gateway asks for it, records it, and passes neither the usage chunk nor usage fields", async () => {
    const response = await post({ model: "owner/b", messages: [], stream: true });
    const text = await response.text();
    expect(b.seen.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect(text).not.toContain("usage");
    expect(text.split("\n\n").filter(Boolean)).toHaveLength(4);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = text.split("\n\n").filter((event) => event.startsWith("data: {")).map((event) => JSON.parse(event.slice(6)));
    expect(chunks.map((chunk) => chunk.choices[0].delta.content)).toEqual(["a", "b", "c"]);
    expect(await lastOutcome()).toMatchObject({ usage: { promptTokens: 7, completionTokens: 3 }, end: "complete" });
  });

  test("a stream with include_usage passes through byte for byte", async () => {
    const response = await post({ model: "owner/b", messages: [], stream: true, stream_options: { include_usage: true } });
    const text = await response.text();
    expect(text).toContain('"choices":[],"usage":{"prompt_tokens":7');
    expect(text.match(/"usage":null/g)).toHaveLength(3);
    expect(await lastOutcome()).toMatchObject({ usage: { promptTokens: 7, completionTokens: 3 } });
  });

  test("a caller that goes away cancels the upstream stream; the request is recorded as cancelled", async () => {
    const abort = new AbortController();
    const before = b.cancelled();
    const response = await post({ model: "owner/b", messages: [], stream: true, slow: true }, { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    abort.abort();
    await eventually(() => b.cancelled() === before + 1, 5000, "the stand-in's stream to be cancelled");
    expect(outcomes.at(-1)).toMatchObject({ end: "cancelled", model: "owner/b" });
  });
});

describe("API keys", () => {
  test("a key limited to a model gets 403 on another; an expired or removed key 401; the svc token passes", async () => {
    const limited = keys.create({ name: "bob", models: ["owner/a"] });
    expect((await post({ model: "owner/a", messages: [] }, { key: limited.key })).status).toBe(200);
    const refused = await post({ model: "owner/b", messages: [] }, { key: limited.key });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("model_not_allowed");
    const listed = await router.handle(new Request("http://localhost:8000/v1/models", { headers: { authorization: `Bearer ${limited.key}` } }));
    expect(((await listed.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id)).toEqual(["owner/a"]);

    const past = new Date(Date.now() - 86_400_000 * 2);
    const expiring = keys.create({ name: "eve", expires: "1d" }, past);
    expect((await post({ model: "owner/a", messages: [] }, { key: expiring.key })).status).toBe(401);

    keys.remove("bob");
    const removed = await post({ model: "owner/a", messages: [] }, { key: limited.key });
    expect(removed.status).toBe(401);
    expect(((await removed.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
    expect((await post({ model: "owner/a", messages: [] }, { key: "anything-else" })).status).toBe(401);
    expect((await post({ model: "owner/a", messages: [] })).status).toBe(200);
  });

  test("only hashes are stored", () => {
    const created = keys.create({ name: "frank" });
    const stored = JSON.stringify(db.$client.query("select * from api_keys").all());
    expect(stored).not.toContain(created.key);
    expect(stored).toContain(created.prefix);
  });
});

describe("usage store", () => {
  test("groups by key, model and service and per day; prunes what is past retention", () => {
    const since = new Date(Date.now() - 3_600_000);
    const byModel = usage.groups(since, "model");
    const b = byModel.find((group) => group.group === "owner/b")!;
    expect(b.promptTokens).toBe(outcomes.filter((o) => o.model === "owner/b").reduce((total, o) => total + (o.usage?.promptTokens ?? 0), 0));
    expect(usage.groups(since, "key").map((group) => group.group)).toContain("svc-token");
    expect(usage.days(since)).toHaveLength(1);
    const recorded = usage.totals(since).requests;
    expect(recorded).toBe(outcomes.length);
    expect(usage.prune(new Date(Date.now() + 31 * 86_400_000))).toBe(recorded);
    expect(usage.totals(since).requests).toBe(0);
  });
});

test("GET /v1/models/<id>: one served model's entry, a 404 for one not served, a 400 for an id that is not valid percent-encoding", async () => {
  const get = (path: string) => router.handle(new Request(`http://localhost:8000${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }));
  const one = await get("/v1/models/owner%2Fa");
  expect(one.status).toBe(200);
  expect(((await one.json()) as { id: string }).id).toBe("owner/a");
  const missing = await get("/v1/models/owner%2Fnone");
  expect(missing.status).toBe(404);
  expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("model_not_found");
  const broken = await get("/v1/models/%E0%A4%A");
  expect(broken.status).toBe(400);
  expect(((await broken.json()) as { error: { message: string } }).error.message).toContain("percent-encoding");
});

describe("on-demand services behind /v1", () => {
  /** A router whose lifecycle starts the stopped service `id-e` (as OnDemandStarts would): it turns HEALTHY at b's address. */
  function wakingRouter(outcome: "starts" | "times out", gate: Promise<void> = Promise.resolve()) {
    const touched: string[] = [];
    const starts: string[] = [];
    let list: ServiceRoute[] = [{ ...route("id-e", "e", "owner/e", null, "STOPPED"), onDemand: true, waits: true }];
    const wakingCatalog = new ServiceCatalog(async () => list);
    const waking = new OpenAiRouter(wakingCatalog, v1Authenticator(keys, TOKEN), () => {}, { lifecycle: {
      activity: { touch: (id: string) => void touched.push(id) },
      starts: {
        async ensureServing(service) {
          starts.push(typeof service === "string" ? service : service.id);
          await Bun.sleep(50);
          await gate;
          if (outcome === "times out") throw new NotServing("did not become HEALTHY within its start timeout (1 s); it is PENDING: Resources", "start_timeout", 30);
          list = [{ ...list[0], status: "HEALTHY", url: b.url }];
          return {} as never;
        },
      },
    } });
    const send = (body: unknown) =>
      waking.handle(new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) }));
    return { send, touched, starts, waking };
  }

  test("requests waiting for the start count in flight on the service from the start; each stops counting once answered", async () => {
    let open!: () => void;
    const { send, waking } = wakingRouter("starts", new Promise<void>((resolve) => (open = resolve)));
    const answers = Array.from({ length: 12 }, (_, i) => send({ model: "owner/e", messages: [{ role: "user", content: String(i) }], stream: i % 2 === 0 }));
    await eventually(() => waking.balancer.count("id-e") === 12);
    expect(waking.balancer.counts().size).toBe(1);
    open();
    const responses = await Promise.all(answers);
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(bodies.filter((body) => body.includes("data: [DONE]") || body.includes("chat.completion"))).toHaveLength(12);
    await eventually(() => waking.balancer.counts().size === 0);
  });

  test("a STOPPED on-demand service is started by a request for its model, which is then answered by it", async () => {
    const { send, touched, starts } = wakingRouter("starts");
    const response = await send({ model: "owner/e", messages: [] });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-svc-service")).toBe("id-e");
    expect(starts).toEqual(["id-e"]);
    expect(touched).toContain("id-e");
  });

  test("a service the list still shows HEALTHY, though it stopped meanwhile, is started by the request (not refused)", async () => {
    const stopped: ServiceRoute = { ...route("id-e", "e", "owner/e", null, "STOPPED"), onDemand: true, waits: true };
    let list: ServiceRoute[] = [{ ...stopped, status: "HEALTHY", url: "http://127.0.0.1:1" }];
    const starts: string[] = [];
    const router = new OpenAiRouter(new ServiceCatalog(async () => list), v1Authenticator(keys, TOKEN), () => {}, { lifecycle: {
      activity: { touch: () => {} },
      starts: {
        async ensureServing(service) {
          starts.push(typeof service === "string" ? service : service.id);
          list = [{ ...stopped, status: "HEALTHY", url: b.url }];
          return {} as never;
        },
      },
    } });
    const send = () => router.handle(new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ model: "owner/e", messages: [] }) }));
    // The list is read (HEALTHY at an address where nothing answers now), then the service is STOPPED.
    await router.handle(new Request("http://localhost:8000/v1/models", { headers: { authorization: `Bearer ${TOKEN}` } }));
    list = [stopped];
    const response = await send();
    expect(response.status).toBe(200);
    expect(response.headers.get("x-svc-service")).toBe("id-e");
    expect(starts).toEqual(["id-e"]);
  });

  test("a model the list a moment old shows STARTING, or not at all, is looked up again before it is refused", async () => {
    let list: ServiceRoute[] = [route("id-f", "f", "owner/f", null, "STARTING")];
    let reads = 0;
    const router = new OpenAiRouter(
      new ServiceCatalog(async () => (reads++, list)),
      v1Authenticator(keys, TOKEN),
      () => {},
    );
    const send = (model: string) => router.handle(new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ model, messages: [] }) }));
    expect((await send("owner/f")).status).toBe(503);
    list = [route("id-f", "f", "owner/f", b.url), route("id-g", "g", "owner/g", b.url)];
    await Bun.sleep(150);
    const ready = await send("owner/f");
    expect(ready.status).toBe(200);
    expect(ready.headers.get("x-svc-service")).toBe("id-f");
    await Bun.sleep(150);
    expect((await send("owner/g")).status).toBe(200);
    // A refusal within a moment of a read is not looked up again.
    const before = reads;
    expect((await send("owner/none")).status).toBe(404);
    expect((await send("owner/none")).status).toBe(404);
    expect(reads - before).toBeLessThanOrEqual(1);
  });

  test("a streamed request gets keep-alive comments while it waits, then the service's stream", async () => {
    const { send } = wakingRouter("starts");
    const response = await send({ model: "owner/e", messages: [], stream: true });
    const text = await response.text();
    expect(text.startsWith(": waiting for the service to start\n\n")).toBe(true);
    expect(text).toContain("data: [DONE]");
  });

  test("past the start timeout: 503 with Retry-After and the scheduler's reason", async () => {
    const { send } = wakingRouter("times out");
    const response = await send({ model: "owner/e", messages: [] });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("PENDING: Resources");
  });
});

describe("LoRA adapters as models of /v1", () => {
  test("an adapter's repo id goes to the service serving it, the body unchanged; /v1/models lists it with its base; usage names the adapter", async () => {
    const before = routes;
    setRoutes([...before.filter((each) => each.id !== "id-b"), { ...route("id-b", "b", "owner/b", b.url, "HEALTHY", "fedcba9876543210"), adapters: ["owner/b-lora"] }]);
    try {
      const response = await post({ model: "owner/b-lora", messages: [] });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-svc-service")).toBe("id-b");
      await response.json();
      expect(b.seen.at(-1)!.body.model).toBe("owner/b-lora");
      expect((await lastOutcome()).model).toBe("owner/b-lora");

      const get = (path: string) => router.handle(new Request(`http://localhost:8000${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }));
      const list = (await (await get("/v1/models")).json()) as { data: Array<{ id: string; parent?: string; root?: string; replicas: number }> };
      expect(list.data.map((model) => model.id)).toEqual(["owner/a", "owner/b", "owner/b-lora"]);
      expect(list.data[2]).toMatchObject({ parent: "owner/b", root: "owner/b", replicas: 1 });
      expect(list.data[1].parent).toBeUndefined();
      expect(((await (await get("/v1/models/owner%2Fb-lora")).json()) as { parent: string }).parent).toBe("owner/b");

      // A key limited to the adapter uses and sees it alone; one limited to the base may not use the adapter.
      const adapterOnly = keys.create({ name: "lora-user", models: ["owner/b-lora"] });
      expect((await post({ model: "owner/b-lora", messages: [] }, { key: adapterOnly.key })).status).toBe(200);
      expect((await post({ model: "owner/b", messages: [] }, { key: adapterOnly.key })).status).toBe(403);
      const seen = (await (await router.handle(new Request("http://localhost:8000/v1/models", { headers: { authorization: `Bearer ${adapterOnly.key}` } }))).json()) as { data: Array<{ id: string }> };
      expect(seen.data.map((model) => model.id)).toEqual(["owner/b-lora"]);
      const baseOnly = keys.create({ name: "base-user", models: ["owner/b"] });
      expect((await post({ model: "owner/b-lora", messages: [] }, { key: baseOnly.key })).status).toBe(403);

      const missing = await post({ model: "owner/other-lora", messages: [] });
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("owner/b-lora");
    } finally {
      setRoutes(before);
    }
  });
});
