import { afterAll, expect, test } from "bun:test";
import { INTERNAL_SECRET_HEADER, SvcUnreachableError } from "@svc/contracts";
import { internalClient } from "../src/service/internal-client";

function echo(name: string) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) =>
      Response.json({ name, path: new URL(request.url).pathname, secret: request.headers.get(INTERNAL_SECRET_HEADER), body: await request.text() }),
  });
}
const servers = { "profile-svc": echo("profile-svc"), "model-svc": echo("model-svc"), "orchestrator-svc": echo("orchestrator-svc") };
afterAll(() => Object.values(servers).forEach((s) => s.stop(true)));
const upstreams = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, `http://127.0.0.1:${s.port}`])) as never;

test("each request goes to the service owning its path, with the internal secret", async () => {
  const client = internalClient(upstreams, "s".repeat(43));
  const profile = await client.request("GET", "/api/profiles/default");
  expect(profile).toEqual({ name: "profile-svc", path: "/api/profiles/default", secret: "s".repeat(43), body: "" });
  const model = await client.request("POST", "/api/models", { body: {} });
  expect(model).toMatchObject({ name: "model-svc", body: "{}" });
  const unowned = (await client.request("GET", "/api/info").catch((e: unknown) => e)) as Error & { cause: Error };
  expect(unowned.cause.message).toBe("No internal service owns /api/info.");
});

test("a service's own routes are reached by its name, and one that does not answer is named", async () => {
  const client = internalClient(upstreams, "s".repeat(43));
  const health = await (await client.serviceRoute("orchestrator-svc", "/health", 2000)).json();
  expect(health).toMatchObject({ name: "orchestrator-svc", path: "/health", secret: "s".repeat(43) });
  const down = internalClient({ ...(upstreams as object), "model-svc": "http://127.0.0.1:9" } as never, "s".repeat(43));
  const error = await down.models.list().catch((e) => e);
  expect(error).toBeInstanceOf(SvcUnreachableError);
  expect(error.message).toBe("model-svc is not answering (it may be restarting); try again in a few seconds.");
});
