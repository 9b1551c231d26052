import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startSvc, type RunningSvc } from "@svc/testing";

type OpenApi = { paths: Record<string, Record<string, { security?: unknown[] }>> };

/** Every (method, path) of the document, path parameters filled with a placeholder. */
function operations(doc: OpenApi) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: path.replace(/\{[^}]+\}/g, "placeholder"),
      public: Array.isArray(op.security) && op.security.length === 0,
    })),
  );
}

describe("debug off with a generated token", () => {
  let app: RunningSvc;
  let token: string;
  beforeAll(async () => {
    app = await startSvc({ env: { SVC_DEBUG: "false" } });
    token = readFileSync(join(app.home, "auth_token"), "utf8").trim();
  });
  afterAll(() => app.cleanup());

  test("the token is random, at least 32 bytes, printed once and stored with mode 0600", () => {
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(app.home, "auth_token")).mode & 0o777).toBe(0o600);
    expect(app.output().split(token).length - 1).toBe(1);
  });

  test("every route of the OpenAPI document answers 401 without the token and works with it", async () => {
    const unauthorized = await fetch(`${app.url}/api/openapi.json`);
    expect(unauthorized.status).toBe(401);
    const doc = (await (await fetch(`${app.url}/api/openapi.json`, { headers: { authorization: `Bearer ${token}` } })).json()) as OpenApi;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      const body = ["POST", "PUT", "PATCH"].includes(op.method) ? "{}" : undefined;
      const headers = { "content-type": "application/json" };
      const without = await fetch(`${app.url}${op.path}`, { method: op.method, body, headers });
      const wrong = await fetch(`${app.url}${op.path}`, { method: op.method, body, headers: { ...headers, authorization: "Bearer wrong-token-value" } });
      const withToken = await fetch(`${app.url}${op.path}`, { method: op.method, body, headers: { ...headers, authorization: `Bearer ${token}` } });
      if (op.public) {
        expect(without.status, `${op.method} ${op.path} is public`).not.toBe(401);
      } else {
        expect(without.status, `${op.method} ${op.path} without token`).toBe(401);
        expect(wrong.status, `${op.method} ${op.path} with a wrong token`).toBe(401);
        expect((await without.json()).error).toBe("unauthorized");
        expect(without.headers.get("www-authenticate")).toContain("Bearer");
      }
      expect(withToken.status, `${op.method} ${op.path} with token`).not.toBe(401);
      expect(withToken.status, `${op.method} ${op.path} with token`).toBeLessThan(500);
    }
  });

  test("the forwarded API prefixes need the token too", async () => {
    for (const path of ["/api/profiles", "/api/models", "/api/services", "/api/images", "/api/runtimes", "/proxy/anything"]) {
      expect((await fetch(`${app.url}${path}`)).status).toBe(401);
    }
    // Through /proxy/ clients speak OpenAI's API, so the refusal comes in its error shape.
    const proxied = await (await fetch(`${app.url}/proxy/anything/v1/models`)).json();
    expect(proxied).toEqual({ error: { message: expect.stringContaining("x-svc-token: <token>"), type: "invalid_request_error", param: null, code: "unauthorized" } });
  });

  test("/api/health, the login page and static assets need no token", async () => {
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${app.url}/login`)).status).toBe(200);
    expect((await fetch(`${app.url}/assets/htmx.min.js`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });

  test("UI pages redirect to the login form, which sets an HttpOnly SameSite=Strict session cookie", async () => {
    const page = await fetch(`${app.url}/?tab=x`, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/?tab=x")}`);

    const form = (fields: Record<string, string>) =>
      fetch(`${app.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
        body: new URLSearchParams(fields),
      });
    const wrong = await form({ token: "not-the-token", next: "/" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That is not the auth token");

    const offsite = await form({ token, next: "//evil.example/" });
    expect(offsite.headers.get("location")).toBe("/");

    const right = await form({ token, next: "/?tab=x" });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/?tab=x");
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const session = cookie.split(";")[0];

    const home = await fetch(`${app.url}/`, { headers: { cookie: session } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Log out");
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: session } })).status).toBe(200);
  });

  test("cookie-authenticated writes from another origin are refused", async () => {
    const login = await fetch(`${app.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams({ token }),
    });
    const session = login.headers.get("set-cookie")!.split(";")[0];
    const crossSite = await fetch(`${app.url}/api/profiles`, {
      method: "POST",
      headers: { cookie: session, origin: "http://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error).toBe("cross_origin");
    const noOrigin = await fetch(`${app.url}/logout`, { method: "POST", redirect: "manual", headers: { cookie: session } });
    expect(noOrigin.status).toBe(403);
    const sameSite = await fetch(`${app.url}/logout`, { method: "POST", redirect: "manual", headers: { cookie: session, origin: app.url } });
    expect(sameSite.status).toBe(303);
    const loginFromElsewhere = await fetch(`${app.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: new URLSearchParams({ token }),
    });
    expect(loginFromElsewhere.status).toBe(403);
  });

  test("a forged or tampered session cookie is not accepted", async () => {
    const forged = `svc_session=${Math.floor(Date.now() / 1000)}.abc.${"A".repeat(43)}`;
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: forged } })).status).toBe(401);
  });

  test("the docs page loads only locally served assets", async () => {
    const page = await fetch(`${app.url}/api/docs`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith("/")).toBe(true);
      expect((await fetch(`${app.url}${source}`)).status).toBe(200);
    }
  });
});

describe("debug off with a user-defined token", () => {
  test("SVC_AUTH_TOKEN (or the older SVC_TOKEN) is enforced and no token file is written", async () => {
    for (const variable of ["SVC_AUTH_TOKEN", "SVC_TOKEN"]) {
      const token = "a-user-defined-token-0123456789";
      const app = await startSvc({ env: { SVC_DEBUG: "0", [variable]: token } });
      expect(existsSync(join(app.home, "auth_token"))).toBe(false);
      expect(app.output()).not.toContain(token);
      expect((await fetch(`${app.url}/api/info`)).status).toBe(401);
      expect((await fetch(`${app.url}/api/info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      await app.cleanup();
    }
  });
});

describe("debug on", () => {
  test("needs no authentication and /login leads home", async () => {
    const app = await startSvc({ env: { SVC_DEV_MODE: "1", SVC_DEBUG: "" } });
    expect((await fetch(`${app.url}/api/info`)).status).toBe(200);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    expect((await fetch(`${app.url}/login`, { redirect: "manual" })).headers.get("location")).toBe("/");
    expect(existsSync(join(app.home, "auth_token"))).toBe(false);
    await app.cleanup();
  });
});
