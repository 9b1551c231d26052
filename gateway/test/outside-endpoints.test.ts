/**
 * Outside endpoints: URL checks, the health probe against a stand-in OpenAI server that wants its
 * own key, the registry (key stored 0600 and never listed, models read from the server or given,
 * removal), and /v1 routing to them: their key upstream and never the caller's, svc's own
 * services first, an UNHEALTHY or unreachable endpoint refused at once.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type ServiceRoute } from "@svc/contracts";
import { freePort } from "@svc/testing";
import { openGatewayDb } from "../src/db/connection";
import { endpointBase, probeEndpoint } from "../src/endpoints/probe";
import { EndpointRegistry } from "../src/endpoints/service";
import { KeyRing } from "../src/keys/service";
import { v1Authenticator } from "../src/keys/v1-auth";
import { ServiceCatalog } from "../src/openai/catalog";
import type { V1Outcome } from "../src/openai/outcome";
import { resolveModel } from "../src/openai/resolve";
import { OpenAiRouter } from "../src/openai/service";

const OUTSIDE_KEY = "outside-secret-key-0123456789";
const seen: Array<string | null> = [];
const outside = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    seen.push(request.headers.get("authorization"));
    if (request.headers.get("authorization") !== `Bearer ${OUTSIDE_KEY}`) return Response.json({ error: { message: `bad key ${request.headers.get("authorization")}` } }, { status: 401 });
    const path = new URL(request.url).pathname;
    if (path === "/v1/models") return Response.json({ object: "list", data: [{ id: "dept/llama", object: "model" }] });
    const body = (await request.json()) as { model: string };
    return Response.json({ id: "x", object: "chat.completion", model: body.model, choices: [{ index: 0, message: { role: "assistant", content: "from outside" } }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });
  },
});
const base = `http://127.0.0.1:${outside.port}`;
const home = mkdtempSync(join(tmpdir(), "svc-endpoints-"));
afterAll(() => {
  outside.stop(true);
  rmSync(home, { recursive: true, force: true });
});

describe("endpointBase", () => {
  test("takes http(s) base URLs with or without /v1", () => {
    expect(endpointBase("http://h:8000/v1/")).toEqual({ base: "http://h:8000" });
    expect(endpointBase("https://llm.example.edu/openai/v1")).toEqual({ base: "https://llm.example.edu/openai" });
    expect(endpointBase("https://llm.example.edu")).toEqual({ base: "https://llm.example.edu" });
  });
  test("refuses other schemes, credentials, queries and non-URLs, saying what to fix", () => {
    for (const [raw, words] of [
      ["ftp://h/", "http or https"],
      ["http://user:pw@h/", "credentials"],
      ["http://h/?key=1", "query"],
      ["not a url", "not a URL"],
    ] as const) {
      const result = endpointBase(raw);
      expect("problem" in result && result.problem).toContain(words);
    }
  });
});

describe("probeEndpoint", () => {
  test("lists the models with the right key; a wrong one is a reason that never quotes the answer or the key", async () => {
    expect(await probeEndpoint(base, OUTSIDE_KEY)).toEqual({ ok: true, models: ["dept/llama"] });
    const wrong = await probeEndpoint(base, "wrong-key-abcdef");
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.reason).toContain("401");
    expect(JSON.stringify(wrong)).not.toContain("wrong-key-abcdef");
  });
  test("an unreachable server fails quickly with a reason", async () => {
    const started = Date.now();
    const result = await probeEndpoint(`http://127.0.0.1:${await freePort()}`, null);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain("not reachable");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("EndpointRegistry", () => {
  const db = openGatewayDb(home);
  const keysDir = join(home, "endpoint-keys");
  const registry = new EndpointRegistry(db, keysDir);

  test("add reads the models with the key, stores the key 0600 and never lists it", async () => {
    const added = await registry.add({ name: "dept", url: `${base}/v1`, apiKey: OUTSIDE_KEY });
    expect(added).toMatchObject({ name: "dept", url: base, models: ["dept/llama"], modelsGiven: false, hasKey: true, status: "HEALTHY", reason: null });
    const file = join(keysDir, "dept.key");
    expect(readFileSync(file, "utf8")).toBe(OUTSIDE_KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(registry.list())).not.toContain(OUTSIDE_KEY);
    expect(JSON.stringify(db.$client.query("SELECT * FROM outside_endpoints").all())).not.toContain(OUTSIDE_KEY);
    expect(registry.routes()).toEqual([expect.objectContaining({ id: "endpoint:dept", model: "dept/llama", url: base, apiKey: OUTSIDE_KEY, status: "HEALTHY", outside: { endpoint: "dept", reason: null } })]);
  });

  test("a second registry on the same data reads the key back; a name taken is 409", async () => {
    const again = new EndpointRegistry(db, keysDir);
    await again.checkAll();
    expect(again.routes()[0]).toMatchObject({ apiKey: OUTSIDE_KEY, status: "HEALTHY" });
    expect(registry.add({ name: "dept", url: base, models: ["x"] })).rejects.toMatchObject({ status: 409 });
  });

  test("a wrong key makes it UNHEALTHY with a reason when the models are given, and refuses the add when they must be read", async () => {
    const given = await registry.add({ name: "wrong", url: base, apiKey: "not-the-key", models: ["dept/other"] });
    expect(given).toMatchObject({ status: "UNHEALTHY", models: ["dept/other"], modelsGiven: true });
    expect(given.reason).toContain("401");
    const refused = await registry.add({ name: "wrong2", url: base, apiKey: "not-the-key" }).catch((error) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: "endpoint_unreachable" });
    expect(registry.list().map((endpoint) => endpoint.name)).toEqual(["dept", "wrong"]);
  });

  test("a bad URL is a 400 that says what to fix", async () => {
    expect(registry.add({ name: "bad", url: "http://u:p@h/", models: ["m"] })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("credentials") });
  });

  test("rm removes the endpoint, its key file and its models; an unknown name is 404", () => {
    registry.remove("wrong");
    expect(registry.routes().map((route) => route.model)).toEqual(["dept/llama"]);
    expect(() => registry.remove("wrong")).toThrow(expect.objectContaining({ status: 404 }));
    expect(existsSync(join(keysDir, "wrong.key"))).toBe(false);
  });
});

const own = (status: string, model = "dept/llama"): ServiceRoute => ({
  id: "own-1",
  name: "own",
  task: "text-generation",
  model,
  revision: "0123",
  profile: "default",
  engine: "docker",
  server: "svc",
  status,
  url: "http://127.0.0.1:1",
  apiKey: "own-key",
  createdAt: "2026-11-25T10:00:00.000Z",
  onDemand: false,
  waits: false,
});
const outsideRoute = (status: string, url = base, reason: string | null = null): ServiceRoute => ({
  ...own(status),
  id: "endpoint:dept",
  name: "dept",
  engine: "outside",
  url,
  apiKey: OUTSIDE_KEY,
  outside: { endpoint: "dept", reason },
});

describe("resolveModel with outside endpoints", () => {
  test("svc's own HEALTHY services come first; the outside endpoint answers while none is", () => {
    expect(resolveModel("dept/llama", [outsideRoute("HEALTHY"), own("HEALTHY")])).toMatchObject({ kind: "ready", services: [expect.objectContaining({ id: "own-1" })] });
    expect(resolveModel("dept/llama", [outsideRoute("HEALTHY"), own("STARTING")])).toMatchObject({ kind: "ready", services: [expect.objectContaining({ id: "endpoint:dept" })] });
  });
  test("only UNHEALTHY outside endpoints: down, with their reasons", () => {
    expect(resolveModel("dept/llama", [outsideRoute("UNHEALTHY", base, "not reachable: ECONNREFUSED")])).toEqual({ kind: "down", repo: "dept/llama", reasons: ["endpoint dept: not reachable: ECONNREFUSED"] });
  });
});

describe("/v1 to an outside endpoint", () => {
  const TOKEN = "the-svc-token-0123456789";
  const db = openGatewayDb(home, "router.sqlite");
  const keys = new KeyRing(db);
  let routes: ServiceRoute[] = [outsideRoute("HEALTHY")];
  const catalog = new ServiceCatalog(async () => routes);
  const outcomes: V1Outcome[] = [];
  const router = new OpenAiRouter(catalog, v1Authenticator(keys, TOKEN), (outcome) => outcomes.push(outcome));
  const chat = (key: string) =>
    router.handle(new Request("http://localhost/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ model: "dept/llama", messages: [] }) }));

  test("the endpoint's key goes upstream, never the caller's; usage is reported for the caller's key", async () => {
    const person = keys.create({ name: "alice" });
    const response = await chat(person.key);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe("from outside");
    expect(seen.at(-1)).toBe(`Bearer ${OUTSIDE_KEY}`);
    expect(seen).not.toContain(`Bearer ${person.key}`);
    expect(outcomes.at(-1)).toMatchObject({ caller: { kind: "key", name: "alice" }, model: "dept/llama", serviceId: "endpoint:dept", serviceName: "dept", usage: expect.objectContaining({ promptTokens: 5, completionTokens: 2 }) });
  });

  test("/v1/models lists the model, owned by the endpoint", async () => {
    const response = await router.handle(new Request("http://localhost/v1/models", { headers: { authorization: `Bearer ${TOKEN}` } }));
    const list = (await response.json()) as { data: Array<{ id: string; owned_by: string; status: string }> };
    expect(list.data).toEqual([expect.objectContaining({ id: "dept/llama", owned_by: "dept", status: "HEALTHY" })]);
    expect(JSON.stringify(list)).not.toContain(OUTSIDE_KEY);
  });

  test("an unreachable endpoint is a 502 at once; an UNHEALTHY one a 503 with its reason", async () => {
    routes = [outsideRoute("HEALTHY", `http://127.0.0.1:${await freePort()}`)];
    catalog.invalidate();
    const started = Date.now();
    const unreachable = await chat(TOKEN);
    expect(unreachable.status).toBe(502);
    expect(((await unreachable.json()) as { error: { code: string } }).error.code).toBe("endpoint_unreachable");
    expect(Date.now() - started).toBeLessThan(5000);
    routes = [outsideRoute("UNHEALTHY", base, "GET /v1/models answered 401")];
    catalog.invalidate();
    const down = await chat(TOKEN);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: { message: string } }).error.message).toContain("answered 401");
  });
});
