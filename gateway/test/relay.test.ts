import { afterAll, expect, test } from "bun:test";
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
