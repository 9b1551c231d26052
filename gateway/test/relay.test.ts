import { afterAll, expect, test } from "bun:test";
import { connect, createServer, type AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { relay, type RelayOptions } from "../src/forward/relay";

const TEXT = "hello from the service ".repeat(40);

/** A service that answers gzip to whoever accepts it, echoing the headers it got. */
const service = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const seen = { "x-seen-accept-encoding": request.headers.get("accept-encoding") ?? "", "x-seen-cookie": request.headers.get("cookie") ?? "", "set-cookie": "service=1" };
    if ((request.headers.get("accept-encoding") ?? "").includes("gzip")) {
      return new Response(Bun.gzipSync(TEXT), { headers: { ...seen, "content-encoding": "gzip", "content-type": "text/plain" } });
    }
    return new Response(TEXT, { headers: { ...seen, "content-type": "text/plain" } });
  },
});

/** The gateway's side: a real server whose handler relays with the options the test gives. */
let options: RelayOptions = {};
const front = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => relay(request, `http://127.0.0.1:${service.port}/`, options) });
afterAll(() => {
  service.stop(true);
  front.stop(true);
});

/** A raw GET, so the test sees the bytes and headers as they come over the wire. */
async function get(headers: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${front.port}/`, { headers, decompress: false });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

test("a caller that accepts gzip gets the service's gzip as it came, with a true length", async () => {
  options = { drop: ["cookie"], dropFromResponse: ["set-cookie"], setOnResponse: { "content-security-policy": "sandbox" } };
  const { response, bytes } = await get({ "accept-encoding": "gzip", cookie: "svc_session=secret" });
  expect(response.headers.get("content-encoding")).toBe("gzip");
  expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
  expect(new TextDecoder().decode(gunzipSync(bytes))).toBe(TEXT);
  expect(response.headers.get("x-seen-cookie")).toBe("");
  expect(response.headers.get("set-cookie")).toBeNull();
  expect(response.headers.get("content-security-policy")).toBe("sandbox");
});

test("a caller that sends no Accept-Encoding gets plain bytes: fetch does not ask for gzip on its behalf", async () => {
  options = {};
  const { response, bytes } = await get({});
  expect(response.headers.get("x-seen-accept-encoding")).toBe("identity");
  expect(response.headers.get("content-encoding")).toBeNull();
  expect(new TextDecoder().decode(bytes)).toBe(TEXT);
});

test("plainBody asks the service for unencoded bytes even when the caller accepts gzip", async () => {
  options = { plainBody: true };
  const { response, bytes } = await get({ "accept-encoding": "gzip, br" });
  expect(response.headers.get("x-seen-accept-encoding")).toBe("identity");
  expect(new TextDecoder().decode(bytes)).toBe(TEXT);
});

test("setOnResponse as a function sees the answer as the service gave it", async () => {
  let seen: string | null = "unset";
  options = { dropFromResponse: ["set-cookie"], setOnResponse: (upstream) => ((seen = upstream.headers.get("set-cookie")), {}) };
  const { response } = await get({});
  expect(seen).toBe("service=1");
  expect(response.headers.get("set-cookie")).toBeNull();
});

/** Sends `head` over a plain socket and resolves with what the peer wrote until it closes (no client rewrites any header). */
function rawExchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

const headerNames = (head: string) => head.split("\r\n\r\n")[0]!.split("\r\n").slice(1).map((line) => line.slice(0, line.indexOf(":")).toLowerCase());

test("hop-by-hop headers stop at the relay both ways: those Connection names, TE and Trailer (RFC 9110 §7.6.1)", async () => {
  // The service: a bare socket that keeps the request's head and answers with hop-by-hop headers of its own.
  let seenHead = "";
  const upstream = createServer((socket) => {
    socket.on("data", (chunk) => {
      seenHead += chunk.toString("latin1");
      if (!seenHead.includes("\r\n\r\n")) return;
      socket.end(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: x-service-hop, close\r\nX-Service-Hop: internal\r\n" +
          "Trailer: x-checksum\r\nTE: trailers\r\nX-Service-Kept: yes\r\n\r\nok",
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const port = (upstream.address() as AddressInfo).port;
  const hopFront = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => relay(request, `http://127.0.0.1:${port}/`) });
  try {
    const answer = await rawExchange(
      hopFront.port!,
      "GET / HTTP/1.1\r\nHost: gateway\r\nConnection: X-Caller-Hop , x-other-hop,close\r\nX-Caller-Hop: secret\r\nX-Other-Hop: 1\r\n" +
        "TE: trailers\r\nTrailer: x-sum\r\nX-Caller-Kept: yes\r\n\r\n",
    );
    const sent = headerNames(seenHead);
    expect(sent).toContain("x-caller-kept");
    for (const name of ["x-caller-hop", "x-other-hop", "te", "trailer"]) expect(sent).not.toContain(name);

    expect(answer).toStartWith("HTTP/1.1 200");
    expect(answer.endsWith("\r\n\r\nok")).toBe(true);
    const got = headerNames(answer);
    expect(got).toContain("x-service-kept");
    for (const name of ["x-service-hop", "te", "trailer"]) expect(got).not.toContain(name);
  } finally {
    hopFront.stop(true);
    upstream.close();
  }
});

test("a Connection header naming no valid field name is ignored, not an error", async () => {
  options = {};
  const { response, bytes } = await get({ connection: "keep-alive, bad name, , x-fine" });
  expect(response.status).toBe(200);
  expect(new TextDecoder().decode(bytes)).toBe(TEXT);
});
