/**
 * No unauthenticated client can exhaust the gateway, and /proxy/ hands services nothing of svc's:
 * bodies over their limit are refused before anything reads them (a 50 MB log-in body barely moves
 * the gateway's memory), a client that sends slowly is dropped after the idle timeout, while a
 * streamed chat through /proxy/ may stay silent far longer than that between chunks, and more streams than Bun's default of 256 open
 * fetches are relayed at once. A service behind /proxy/ never sees the svc token
 * (however `Bearer` is written) and its answers come sandboxed, without cookies. The service is the
 * test stand-in runtime (tests/support/fake-runtime), which echoes what it got and streams slowly.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { commitOf, ensureDocker, eventually, fakeRuntimeImage, files, startSvc, writeCachedSnapshot, type RunningSvc } from "@svc/testing";

const TOKEN = "a-token-for-the-limits-test-0123456789";
/** The gateway's idle timeout is 10 s; a connection it has not dropped long after that never will be. */
const DROPPED_WITHIN_MS = 60_000;

let app: RunningSvc;
let client: SvcClient;
let serviceId: string;

beforeAll(async () => {
  ensureDocker();
  const image = fakeRuntimeImage();
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN, SVC_RUNTIME_IMAGE_TEXT_GENERATION: image } });
  client = new SvcClient({ baseUrl: app.url, token: TOKEN });
  const home = join(app.home, "profile-home");
  await client.profiles.create({ name: "default", schema: "local", home_dir: home, cache_dir: home });
  writeCachedSnapshot(join(home, "models"), "acme/stand-in", commitOf("stand-in"), files.gguf());
  await client.models.refresh("default");
  const run = await client.services.run({ task: "text-generation", model: "acme/stand-in", name: "stand-in" });
  serviceId = run.service!.id;
  await eventually(async () => (await client.services.get(serviceId)).status === "HEALTHY", 60_000, "the stand-in service to be HEALTHY");
}, 300_000);

afterAll(async () => {
  for (const service of (await client?.services.list({ all: true }).catch(() => [])) ?? []) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
});

const gatewayRssKiB = () => Number(readFileSync(`/proc/${app.lock().components.gateway.pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)![1]);

/** Opens a connection, sends `head` and never the rest; resolves with what came back once the gateway closed it. */
function sendSlowly(head: string): Promise<{ closed: boolean; answer: string }> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(app.port, "127.0.0.1", () => socket.write(head));
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, answer });
    }, DROPPED_WITHIN_MS);
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ closed: true, answer });
    });
  });
}

describe("bodies are capped before they are read", () => {
  test("a 50 MB log-in body is answered 413 and the gateway grows by less than 20 MB", async () => {
    const before = gatewayRssKiB();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${app.url}/login`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url }, body: new Uint8Array(50 * 1024 * 1024).fill(0x61) });
      expect(response.status).toBe(413);
      expect((await response.json()).error).toBe("body_too_large");
    }
    expect(gatewayRssKiB() - before).toBeLessThan(20 * 1024);
  });

  test("API bodies over 1 MiB get 413, bodies without a length 411, with or without the token", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    const callers: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of callers) {
      const response = await fetch(`${app.url}/api/profiles`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: big });
      expect(response.status).toBe(413);
      expect((await response.json()).message).toContain("1024 KiB");
    }
    const chunked = await sendSlowly(`POST /api/profiles HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    expect(chunked.answer).toStartWith("HTTP/1.1 411");
  });
});

describe("the idle timeout", () => {
  test("a client that sends its log-in body slowly, or an API body, is dropped", async () => {
    const login = sendSlowly(`POST /login HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=abc`);
    const api = sendSlowly(`PUT /api/profiles/default HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"home_dir":`);
    const headersOnly = sendSlowly(`GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\n`);
    for (const slow of await Promise.all([login, api, headersOnly])) {
      expect(slow.closed).toBe(true);
      expect(slow.answer).toBe("");
    }
    expect((await client.profiles.get("default")).schema).toBe("local");
  }, 120_000);

  test("a chat streamed through /proxy/ for a minute, silent for longer than the idle timeout (10 s) between chunks, completes", async () => {
    const response = await fetch(`${app.url}/proxy/${serviceId}/slow-stream?total=60000&every=15000`, { headers: { "x-svc-token": TOKEN } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.match(/^data: \{/gm)).toHaveLength(4);
    expect(text).toContain("chunk 4 ");
    expect(text.trimEnd()).toEndWith("data: [DONE]");
  }, 200_000);

  test("more streams than Bun's default of 256 open fetches are relayed at once: every one starts before the first one ends", async () => {
    const STREAMS = 300;
    const head = `GET /proxy/${serviceId}/slow-stream?total=15000&every=1000 HTTP/1.1\r\nhost: 127.0.0.1\r\nx-svc-token: ${TOKEN}\r\nconnection: close\r\n\r\n`;
    let started = 0;
    let startedWhenFirstEnded: number | undefined;
    // Raw sockets: the test's own fetch would queue past 256 too.
    const streams = Array.from(
      { length: STREAMS },
      () =>
        new Promise<string>((resolve) => {
          let answer = "";
          const socket = connect(app.port, "127.0.0.1", () => socket.write(head));
          socket.on("data", (chunk) => {
            if (!answer) started++;
            answer += chunk.toString();
          });
          socket.on("error", () => {});
          socket.on("close", () => {
            startedWhenFirstEnded ??= started;
            resolve(answer);
          });
        }),
    );
    const answers = await Promise.all(streams);
    expect(startedWhenFirstEnded).toBe(STREAMS);
    for (const answer of answers) {
      expect(answer.startsWith("HTTP/1.1 200")).toBe(true);
      expect(answer).toContain("data: [DONE]");
    }
  }, 120_000);
});

describe("what /proxy/ passes on", () => {
  test("the svc token is taken off Authorization however Bearer is written; the service's own key goes through", async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER  ${TOKEN} `]) {
      const echoed = await (await fetch(`${app.url}/proxy/${serviceId}/v1/models`, { headers: { authorization } })).json();
      expect(echoed.authorization, authorization).toBeNull();
    }
    const own = await (await fetch(`${app.url}/proxy/${serviceId}/v1/models`, { headers: { "x-svc-token": TOKEN, authorization: "Bearer the-service-key" } })).json();
    expect(own.authorization).toBe("Bearer the-service-key");
  });

  test("answers come sandboxed and without the service's cookies", async () => {
    const response = await fetch(`${app.url}/proxy/${serviceId}/v1/models`, { headers: { "x-svc-token": TOKEN } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("set-cookie")).toBeNull();
    const direct = await fetch(`${(await client.services.get(serviceId)).url}/v1/models`);
    expect(direct.headers.get("set-cookie")).toBe("fake=1; Path=/");
  });
});
