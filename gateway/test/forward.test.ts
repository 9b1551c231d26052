import { afterAll, describe, expect, test } from "bun:test";
import { INTERNAL_SECRET_HEADER, ownerOf } from "@svc/contracts";
import { forward } from "../src/forward/service";

const SECRET = "internal-secret-".padEnd(43, "x");

/** An upstream that echoes what it received. */
const upstream = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/api/profiles/stream") {
      const body = new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("first\n"));
          await Bun.sleep(200);
          controller.enqueue(new TextEncoder().encode("second\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    }
    return Response.json(
      {
        method: request.method,
        path: url.pathname,
        search: url.search,
        body: await request.text(),
        secret: request.headers.get(INTERNAL_SECRET_HEADER),
        authorization: request.headers.get("authorization"),
        cookie: request.headers.get("cookie"),
        custom: request.headers.get("x-custom"),
      },
      { status: 201 },
    );
  },
});
afterAll(() => upstream.stop(true));
const base = `http://127.0.0.1:${upstream.port}`;

describe("forwarding", () => {
  test("each API prefix belongs to its service", () => {
    expect(ownerOf("/api/profiles")).toBe("profile-svc");
    expect(ownerOf("/api/profiles/default")).toBe("profile-svc");
    expect(ownerOf("/api/models/downloads/1")).toBe("model-svc");
    expect(ownerOf("/api/services")).toBe("orchestrator-svc");
    expect(ownerOf("/api/images/build")).toBe("orchestrator-svc");
    expect(ownerOf("/api/runtimes/installs")).toBe("orchestrator-svc");
    expect(ownerOf("/api/profilesX")).toBeUndefined();
    expect(ownerOf("/api/info")).toBeUndefined();
  });

  test("method, path, query and body go through; gateway credentials stay behind; the internal secret is added", async () => {
    const request = new Request("http://localhost:8000/api/profiles/a?x=1&y=2", {
      method: "PUT",
      body: JSON.stringify({ home_dir: "/h" }),
      headers: { authorization: "Bearer user-token", cookie: "svc_session=abc", "x-custom": "kept", [INTERNAL_SECRET_HEADER]: "forged" },
    });
    const response = await forward(request, "profile-svc", base, SECRET);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      method: "PUT",
      path: "/api/profiles/a",
      search: "?x=1&y=2",
      body: '{"home_dir":"/h"}',
      secret: SECRET,
      authorization: null,
      cookie: null,
      custom: "kept",
    });
  });

  test("responses stream through unbuffered", async () => {
    const response = await forward(new Request("http://localhost:8000/api/profiles/stream"), "profile-svc", base, SECRET);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first\n");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe("second\n");
  });

  test("a quick whole answer keeps the caller's connection; a streamed one lifts the idle timeout and closes it after", async () => {
    const lifted: number[] = [];
    const server = { timeout: (_request: Request, seconds: number) => void lifted.push(seconds) };
    const quick = await forward(new Request("http://localhost:8000/api/profiles/a"), "profile-svc", base, SECRET, server);
    await quick.arrayBuffer();
    expect(quick.headers.get("connection")).toBeNull();
    expect(lifted).toEqual([]);
    const streamed = await forward(new Request("http://localhost:8000/api/profiles/stream"), "profile-svc", base, SECRET, server);
    await streamed.arrayBuffer();
    expect(streamed.headers.get("connection")).toBe("close");
    expect(lifted).toEqual([0]);
  });

  test("a service that does not answer gives 503 with a JSON error naming it", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const deadUrl = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const response = await forward(new Request("http://localhost:8000/api/models"), "model-svc", deadUrl, SECRET);
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body.error).toBe("service_unavailable");
    expect(body.message).toContain("model-svc");
  });
});
