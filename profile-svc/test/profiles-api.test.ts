import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts";
import { createServiceApp } from "@svc/platform";
import { checkedHandle } from "@svc/testing";
import { profilesController } from "../src/profiles";
import { ProfileService } from "../src/profiles/service";

const SECRET = "profile-api-test-secret".padEnd(40, "x");
const home = mkdtempSync(join(tmpdir(), "svc-profile-api-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const file = join(home, "svc", "profiles.cfg");
const cache = join(home, "cache");
mkdirSync(cache);
const app = createServiceApp("profile-svc", SECRET, [profilesController(new ProfileService({ profilesFile: file, userHome: home, env: { HOME: home, PATH: "/usr/bin:/bin" } }))]);
/** Every answer is checked against profile-svc's part of the OpenAPI document. */
const handle = await checkedHandle(app, SECRET);

async function call(method: string, path: string, body?: unknown, raw?: string) {
  const response = await handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { [INTERNAL_SECRET_HEADER]: SECRET, "content-type": "application/json" },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const local = (name: string, extra: Record<string, unknown> = {}) => ({ name, schema: "local", home_dir: join(home, name), cache_dir: cache, ...extra });

describe("REST /api/profiles against the real profile-svc app", () => {
  test("before svc init: an empty list, and a profile lookup says to run svc init", async () => {
    expect(await call("GET", "/api/profiles")).toEqual({ status: 200, body: [] });
    const missing = await call("GET", "/api/profiles/default");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("no_profiles");
    expect(missing.body.message).toContain("svc init");
  });

  test("the first profile must be the default one", async () => {
    const result = await call("POST", "/api/profiles", local("first"));
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ error: "default_profile_required" });
    expect(existsSync(file)).toBe(false);
  });

  test("bad input is a 400 that says what to fix", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [local("bad name"), /not allowed: 1–63 characters/],
      [local("../etc"), /not allowed/],
      [{ ...local("default"), schema: "kubernetes" }, /schema "kubernetes" is not one of local, slurm/],
      [{ name: "default", schema: "local", cache_dir: cache }, /home_dir is required for a local profile/],
      [{ ...local("default"), home_dir: "relative/path" }, /not an absolute path/],
      [{ ...local("default"), home: "/x" }, /home is not an attribute of a local profile \(a local profile names them home_dir and cache_dir\)/],
      [{ ...local("default"), home_dir: "/tmp/a\n[evil]" }, /line break/],
      [{ name: "default", schema: "slurm", host: "me@cluster", user: "me", home: "/h", cache: "/c" }, /put the user name in user/],
      [{ name: "default", schema: "slurm", host: "cluster", user: "me; rm -rf /", home: "/h", cache: "/c" }, /is not a user name/],
      [{ name: "default", schema: "slurm", host: "cluster", user: "me", home: "relative", cache: "/c" }, /not an absolute path on the server/],
      [{ name: "default", schema: "slurm", host: "cluster", user: "me", home: "/h", cache: "/c", port: 70000 }, /port/],
      [{ name: "default", schema: "slurm", host: "cluster", user: "me", home: "/h" }, /cache is required for a slurm profile/],
      [{ name: "default", schema: "slurm", host: "cluster", user: "me", home: "/h", cache: "/c", home_dir: "/x" }, /home_dir belongs to local profiles/],
    ];
    for (const [body, message] of cases) {
      const result = await call("POST", "/api/profiles", body);
      expect(result.status).toBe(400);
      expect(result.body.error).toBe("invalid_request");
      expect(result.body.message).toMatch(message);
    }
    const garbage = await call("POST", "/api/profiles", undefined, "{not json");
    expect(garbage.status).toBe(400);
    expect(existsSync(file)).toBe(false);
  });

  test("a missing cache folder is refused and leaves nothing behind (not even the home folder)", async () => {
    const result = await call("POST", "/api/profiles", { ...local("default"), cache_dir: join(home, "no-such-cache") });
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ error: "local_dir_failed", details: { field: "cache_dir" } });
    expect(result.body.message).toContain("does not exist");
    expect(existsSync(join(home, "default"))).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  test("a home folder that is a file is refused", async () => {
    const result = await call("POST", "/api/profiles", { ...local("default"), home_dir: "/proc/version" });
    expect(result.status).toBe(422);
    expect(result.body.details.field).toBe("home_dir");
  });

  test("create, read, update, remove", async () => {
    const created = await call("POST", "/api/profiles", local("default"));
    expect(created.status).toBe(201);
    expect(created.body.profile).toEqual({ name: "default", schema: "local", home_dir: join(home, "default"), cache_dir: cache });
    expect(created.body.notices).toEqual([`Created home_dir ${join(home, "default")}.`]);
    expect(existsSync(join(home, "default"))).toBe(true);

    expect((await call("POST", "/api/profiles", local("default"))).status).toBe(409);
    expect((await call("POST", "/api/profiles", local("second", { home_dir: "~/second" }))).body.profile.home_dir).toBe(join(home, "second"));
    expect((await call("GET", "/api/profiles")).body.map((p: { name: string }) => p.name)).toEqual(["default", "second"]);
    expect((await call("GET", "/api/profiles/second")).body.schema).toBe("local");
    expect((await call("GET", "/api/profiles/nope")).body.message).toContain("Profiles: default, second.");

    const renamed = await call("PUT", "/api/profiles/second", { name: "third" });
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toContain("name cannot change");
    const reschema = await call("PUT", "/api/profiles/second", { schema: "slurm" });
    expect(reschema.status).toBe(400);
    expect(reschema.body.message).toContain("schema cannot change");
    const updated = await call("PUT", "/api/profiles/second", { cache_dir: home });
    expect(updated.status).toBe(200);
    expect(updated.body.profile).toEqual({ name: "second", schema: "local", home_dir: join(home, "second"), cache_dir: home });
    expect((await call("PUT", "/api/profiles/missing", { cache_dir: home })).status).toBe(404);

    const removeDefault = await call("DELETE", "/api/profiles/default");
    expect(removeDefault.status).toBe(409);
    expect(removeDefault.body.error).toBe("default_profile_required");
    expect((await call("DELETE", "/api/profiles/second")).status).toBe(204);
    expect((await call("DELETE", "/api/profiles/second")).status).toBe(404);
    expect(readFileSync(file, "utf8")).toBe(`[default]\nschema = local\nhome_dir = ${join(home, "default")}\ncache_dir = ${cache}\n`);
  });

  test("idle_stop: a profile's default --idle-stop, kept in profiles.cfg; not a duration is a 400 naming it", async () => {
    const bad = await call("PUT", "/api/profiles/default", { idle_stop: "soon" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('idle_stop "soon" is not a duration');
    const set = await call("PUT", "/api/profiles/default", { idle_stop: "30m" });
    expect(set.status).toBe(200);
    expect(set.body.profile.idle_stop).toBe("30m");
    expect(readFileSync(file, "utf8")).toContain("idle_stop = 30m\n");
    expect((await call("GET", "/api/profiles/default")).body.idle_stop).toBe("30m");
  });

  test("the OpenAPI part documents the routes", async () => {
    const response = await app.handle(new Request("http://localhost/openapi.json", { headers: { [INTERNAL_SECRET_HEADER]: SECRET } }));
    const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/api/profiles"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/profiles/{name}"]).sort()).toEqual(["delete", "get", "put"]);
  });
});
