import { afterAll, expect, test } from "bun:test";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts";
import { internalFetch } from "../src/service/internal-fetch";

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
  const send = internalFetch(upstreams, "s".repeat(43));
  const profile = await (await send("http://svc.internal/api/profiles/default")).json();
  expect(profile).toEqual({ name: "profile-svc", path: "/api/profiles/default", secret: "s".repeat(43), body: "" });
  const model = await (await send("http://svc.internal/api/models", { method: "POST", body: "{}" })).json();
  expect(model).toMatchObject({ name: "model-svc", body: "{}" });
  await expect(send("http://svc.internal/api/info")).rejects.toThrow("No internal service owns /api/info");
});
