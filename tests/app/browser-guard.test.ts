/**
 * No web page can drive svc: in debug mode (no authentication) and with a token alike, a write a
 * browser says comes from another site is refused, and so is any request addressed to a name that
 * is not this application's (a DNS-rebound page), while the UI itself, the CLI and scripts work.
 * Also: after log-in only paths of this site are followed, and a logged-out session is worthless,
 * even after the gateway restarted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, processExists, runSvc, startSvc, tempHome, type RunningSvc } from "@svc/testing";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const EVIL = "http://evil.example";

describe("debug mode: another site's page gets nothing", () => {
  let app: RunningSvc;
  beforeAll(async () => {
    app = await startSvc();
  });
  afterAll(() => app.cleanup());

  test("cross-site form posts to the UI and the API are refused and change nothing", async () => {
    const folder = join(app.home, "made-by-evil");
    const attempts: [string, Record<string, string>][] = [
      ["/profiles", { name: "default", schema: "local", home_dir: folder, cache_dir: app.home }],
      ["/services/new", { action: "launch", task: "speech-recognition", model: "acme/x", inputDir: "/" }],
      ["/services/0000/stop", {}],
      ["/models/refresh", {}],
      ["/api/profiles", {}],
      ["/logout", {}],
    ];
    for (const [path, fields] of attempts) {
      const browsers: Record<string, string>[] = [{ origin: EVIL }, { origin: "null" }, { "sec-fetch-site": "cross-site" }, { referer: `${EVIL}/page` }, { origin: `http://127.0.0.1:${app.port + 1}` }];
      for (const browser of browsers) {
        const response = await fetch(`${app.url}${path}`, { method: "POST", redirect: "manual", headers: { ...FORM, ...browser }, body: form(fields) });
        expect(response.status, `${path} ${JSON.stringify(browser)}`).toBe(403);
        expect((await response.json()).error).toBe("cross_origin");
      }
    }
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(join(app.home, "profiles.cfg"))).toBe(false);
  });

  test("a request for another host name (DNS rebinding) is refused, reads included", async () => {
    for (const host of [`attacker.example:${app.port}`, "attacker.example", `127.0.0.1.evil.example:${app.port}`]) {
      for (const [method, path] of [["GET", "/api/info"], ["GET", "/"], ["POST", "/api/profiles"]]) {
        const response = await fetch(`${app.url}${path}`, { method, headers: { host, "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
        expect(response.status, `${method} ${path} Host: ${host}`).toBe(403);
        const body = await response.json();
        expect(body.error).toBe("host_not_allowed");
        expect(body.message).toContain("SVC_ALLOWED_HOSTS");
      }
    }
  });

  test("the UI's own pages, the CLI and scripts keep working", async () => {
    const sameSite = await fetch(`${app.url}/profiles`, {
      method: "POST",
      redirect: "manual",
      headers: { ...FORM, origin: app.url, "sec-fetch-site": "same-origin" },
      body: form({ name: "default", schema: "local", home_dir: join(app.home, "h"), cache_dir: app.home }),
    });
    expect(sameSite.status).toBe(303);
    for (const host of [`localhost:${app.port}`, `[::1]:${app.port}`, `127.0.0.1:${app.port}`]) {
      expect((await fetch(`${app.url}/api/info`, { headers: { host } })).status, host).toBe(200);
    }
    // A script (no Origin, no Sec-Fetch-Site) may write; so may the CLI.
    const script = await fetch(`${app.url}/api/models/refresh`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(script.status).toBe(200);
    const ls = await runSvc(["profile", "ls"], { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) });
    expect(ls.code).toBe(0);
    expect(ls.stdout).toContain("default");
  });
});

describe("with a token, and extra names for a reverse proxy", () => {
  const token = "a-token-for-the-browser-guard-0123456789";
  let app: RunningSvc;
  beforeAll(async () => {
    app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: token, SVC_ALLOWED_HOSTS: "svc.proxy.example" } });
    const created = await fetch(`${app.url}/api/profiles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "default", schema: "local", home_dir: join(app.home, "h"), cache_dir: app.home }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => app.cleanup());
  const bearer = { authorization: `Bearer ${token}` };

  test("the token does not make a foreign host name acceptable", async () => {
    const response = await fetch(`${app.url}/api/info`, { headers: { ...bearer, host: `attacker.example:${app.port}` } });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("host_not_allowed");
  });

  test("a name in SVC_ALLOWED_HOSTS is answered, and a page served under it may write", async () => {
    expect((await fetch(`${app.url}/api/info`, { headers: { ...bearer, host: "svc.proxy.example" } })).status).toBe(200);
    const behindTls = await fetch(`${app.url}/api/models/refresh`, {
      method: "POST",
      headers: { ...bearer, host: "svc.proxy.example", origin: "https://svc.proxy.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(behindTls.status).toBe(200);
    const crossSite = await fetch(`${app.url}/api/models/refresh`, { method: "POST", headers: { ...bearer, origin: EVIL, "content-type": "application/json" }, body: "{}" });
    expect(crossSite.status).toBe(403);
  });

  test("after log-in only paths of this site are followed", async () => {
    const page = await (await fetch(`${app.url}/login?next=${encodeURIComponent("/\t/evil.example")}`)).text();
    expect(page).toContain('name="next" value="/"');
    for (const next of ["/\t/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example"]) {
      const login = await fetch(`${app.url}/login`, { method: "POST", redirect: "manual", headers: { ...FORM, origin: app.url }, body: form({ token, next }) });
      expect(login.status).toBe(303);
      expect(login.headers.get("location"), JSON.stringify(next)).toBe("/");
    }
  });

  test("a logged-out session cookie is refused, also after the gateway restarted", async () => {
    const login = await fetch(`${app.url}/login`, { method: "POST", redirect: "manual", headers: { ...FORM, origin: app.url }, body: form({ token, next: "/" }) });
    const session = login.headers.get("set-cookie")!.split(";")[0];
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: session } })).status).toBe(200);
    const logout = await fetch(`${app.url}/logout`, { method: "POST", redirect: "manual", headers: { cookie: session, origin: app.url } });
    expect(logout.status).toBe(303);
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: session } })).status).toBe(401);

    const gateway = app.lock().components.gateway.pid!;
    process.kill(gateway, "SIGKILL");
    await eventually(() => !processExists(gateway), 5_000, "the gateway to die");
    await eventually(async () => (await fetch(`${app.url}/api/health`)).ok, 20_000, "the supervisor to restart the gateway");
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: session } })).status).toBe(401);
    // A session that did not log out survives the restart.
    const other = await fetch(`${app.url}/login`, { method: "POST", redirect: "manual", headers: { ...FORM, origin: app.url }, body: form({ token, next: "/" }) });
    expect((await fetch(`${app.url}/api/info`, { headers: { cookie: other.headers.get("set-cookie")!.split(";")[0] } })).status).toBe(200);
    const revoked = join(app.home, "data", "gateway", "revoked-sessions");
    expect(readFileSync(revoked, "utf8").trim().split("\n")).toHaveLength(1);
  });
});

describe("svc start with debug on beyond this machine", () => {
  test("refuses without --yes, saying why and what to do instead", async () => {
    const home = tempHome("svc-open-debug-");
    mkdirSync(home, { recursive: true });
    // The port is taken on loopback, so even a start that did not refuse could never serve there.
    const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const start = await runSvc(["start", "--host", "0.0.0.0", "--port", String(taken.port)], { SVC_HOME_DIR: home, SVC_DEBUG: "true" });
    taken.stop(true);
    expect(start.code).not.toBe(0);
    expect(start.stderr).toContain("Refusing to start: debug mode is on (no authentication) and --host 0.0.0.0 serves svc beyond this machine");
    expect(start.stderr).toContain("--debug false");
    expect(start.stderr).toContain("--yes");
    expect(existsSync(join(home, "svc.lock"))).toBe(false);
  });
});
