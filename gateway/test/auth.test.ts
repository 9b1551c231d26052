import { describe, expect, test } from "bun:test";
import { bearerToken, checkAccess, safeNext } from "../src/auth/service";
import { issueSession, sessionValid, SESSION_TTL_SECONDS } from "../src/auth/session";

const TOKEN = "the-auth-token-0123456789";
const ORIGIN = "http://localhost:8000";

function request(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Request(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers: init.headers });
}

describe("sessions", () => {
  test("a session issued with the token is valid until it expires", () => {
    const now = Date.now();
    const session = issueSession(TOKEN, now);
    expect(sessionValid(TOKEN, session, now)).toBe(true);
    expect(sessionValid(TOKEN, session, now + (SESSION_TTL_SECONDS - 1) * 1000)).toBe(true);
    expect(sessionValid(TOKEN, session, now + (SESSION_TTL_SECONDS + 1) * 1000)).toBe(false);
  });

  test("a session is worthless under another token or when altered", () => {
    const session = issueSession(TOKEN);
    expect(sessionValid("another-token-0123456789", session)).toBe(false);
    const [issued, nonce, mac] = session.split(".");
    expect(sessionValid(TOKEN, `${Number(issued) + 60}.${nonce}.${mac}`)).toBe(false);
    expect(sessionValid(TOKEN, `${issued}.x${nonce}.${mac}`)).toBe(false);
    expect(sessionValid(TOKEN, "garbage")).toBe(false);
    expect(sessionValid(TOKEN, undefined)).toBe(false);
  });
});

describe("checkAccess", () => {
  const cookie = `svc_session=${issueSession(TOKEN)}`;

  test("debug mode lets everything through", () => {
    expect(checkAccess(request("/api/info"), { token: undefined })).toEqual({ kind: "allow", via: "debug" });
  });

  test("public paths need nothing", () => {
    for (const path of ["/login", "/api/health", "/assets/htmx.min.js", "/api/docs/assets/init.js"]) {
      expect(checkAccess(request(path), { token: TOKEN }).kind).toBe("allow");
    }
  });

  test("bearer tokens are checked exactly", () => {
    expect(checkAccess(request("/api/info", { headers: { authorization: `Bearer ${TOKEN}` } }), { token: TOKEN })).toEqual({ kind: "allow", via: "bearer" });
    expect(checkAccess(request("/api/info", { headers: { authorization: `Bearer ${TOKEN}x` } }), { token: TOKEN }).kind).toBe("unauthenticated");
    expect(checkAccess(request("/api/info", { headers: { authorization: `Basic ${TOKEN}` } }), { token: TOKEN }).kind).toBe("unauthenticated");
    expect(checkAccess(request("/api/info"), { token: TOKEN }).kind).toBe("unauthenticated");
  });

  test("a session cookie allows reads, and writes only from this origin", () => {
    expect(checkAccess(request("/api/info", { headers: { cookie } }), { token: TOKEN })).toEqual({ kind: "allow", via: "session" });
    const post = (headers: Record<string, string>) => checkAccess(request("/api/profiles", { method: "POST", headers: { cookie, ...headers } }), { token: TOKEN });
    expect(post({ origin: ORIGIN }).kind).toBe("allow");
    expect(post({ origin: "http://evil.example" }).kind).toBe("cross-origin");
    expect(post({ referer: `${ORIGIN}/profiles` }).kind).toBe("allow");
    expect(post({ referer: "http://evil.example/x" }).kind).toBe("cross-origin");
    expect(post({ "sec-fetch-site": "same-origin" }).kind).toBe("allow");
    expect(post({ "sec-fetch-site": "cross-site" }).kind).toBe("cross-origin");
    expect(post({}).kind).toBe("cross-origin");
  });

  test("through /proxy/ the token may come as X-Svc-Token, leaving Authorization to the service's API key", () => {
    const proxied = (headers: Record<string, string>) => checkAccess(request("/proxy/abc/v1/models", { headers }), { token: TOKEN }).kind;
    expect(proxied({ "x-svc-token": TOKEN, authorization: "Bearer service-api-key" })).toBe("allow");
    expect(proxied({ authorization: `Bearer ${TOKEN}` })).toBe("allow");
    expect(proxied({ authorization: "Bearer service-api-key" })).toBe("unauthenticated");
    expect(proxied({ "x-svc-token": "wrong", authorization: "Bearer service-api-key" })).toBe("unauthenticated");
    expect(checkAccess(request("/api/info", { headers: { "x-svc-token": TOKEN } }), { token: TOKEN }).kind).toBe("unauthenticated");
  });
});

describe("what a session cookie, a bearer header and a next path are worth", () => {
  test("a session revoked by logging out is refused, the same as no session", () => {
    const session = issueSession(TOKEN);
    const rules = { token: TOKEN, revoked: (value: string) => value === session };
    expect(checkAccess(request("/api/info", { headers: { cookie: `svc_session=${session}` } }), rules).kind).toBe("unauthenticated");
    expect(checkAccess(request("/api/info", { headers: { cookie: `svc_session=${issueSession(TOKEN)}` } }), rules).kind).toBe("allow");
  });

  test("the bearer scheme is read however it is written", () => {
    for (const header of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER  ${TOKEN} `, ` Bearer\t${TOKEN}`]) expect(bearerToken(header)).toBe(TOKEN);
    for (const header of [`Basic ${TOKEN}`, `Bearer`, `Bearer a b`, "", null]) expect(bearerToken(header)).toBeUndefined();
  });

  test("after log-in only paths of this site are followed", () => {
    expect(safeNext("/services/abc?tab=logs#end")).toBe("/services/abc?tab=logs#end");
    expect(safeNext(undefined)).toBe("/");
    for (const next of ["//evil.example/", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/ /evil.example", "https://evil.example/", "evil.example", "/\x00x"]) {
      expect(safeNext(next), JSON.stringify(next)).toBe("/");
    }
  });
});
