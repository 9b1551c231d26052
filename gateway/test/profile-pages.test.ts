/**
 * The profiles pages of the web UI, through the real gateway and the real profile-svc (served on
 * loopback): plain form posts (no JavaScript), redirects, errors that say what to fix, escaping.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServiceApp, loadSettings } from "@svc/platform";
import { gpusController, GpusService, profilesController, ProfileService } from "@svc/profile-svc";
import { createGateway } from "../src/app";

const SECRET = "pages-test-internal-secret".padEnd(40, "x");
const home = mkdtempSync(join(tmpdir(), "svc-pages-"));
const cache = join(home, "cache");
mkdirSync(cache);
const file = join(home, "svc", "profiles.cfg");
/**
 * GPU readings: a local profile's from a stand-in (one H100), the slurm profile hpc's kept from an
 * earlier check (so no page here reaches for a cluster).
 */
const gpuCacheDir = join(home, "gpus");
mkdirSync(gpuCacheDir);
const partition = { default: false, nodes: 2, timeLimit: "1-00:00:00", cpusPerNode: 64, memoryBytesPerNode: 500_000 * 1024 ** 2, notes: [] };
writeFileSync(
  join(gpuCacheDir, "hpc.json"),
  JSON.stringify({ source: "slurm", checkedAt: "2026-11-27T10:00:00.000Z", partitions: [{ ...partition, name: "cpu", default: true, gpusPerNode: 0, gpuType: null }, { ...partition, name: "gpu", gpusPerNode: 4, gpuType: "<a100>" }] }),
);
const localGpus = async () => ({ source: "docker" as const, checkedAt: new Date().toISOString(), partitions: [{ ...partition, name: "local", default: true, nodes: 1, gpusPerNode: 1, gpuType: "h100", deviceMemoryBytes: 81559 * 1024 ** 2, timeLimit: null }] });
const profiles = new ProfileService({ profilesFile: file, userHome: home, env: { HOME: home, PATH: "/usr/bin:/bin" }, gpuCacheDir, localGpus });
const profileSvc = createServiceApp("profile-svc", SECRET, [profilesController(profiles), gpusController(new GpusService(profiles))]).listen({ hostname: "127.0.0.1", port: 0 });
const upstream = `http://127.0.0.1:${profileSvc.server!.port}`;
const gateway = createGateway({
  settings: loadSettings({ SVC_HOME_DIR: join(home, "svc"), HOME: home }),
  internalSecret: SECRET,
  upstreams: { "profile-svc": upstream, "model-svc": "http://127.0.0.1:9", "orchestrator-svc": "http://127.0.0.1:9" },
  authToken: undefined,
});
afterAll(async () => {
  await profileSvc.stop();
  rmSync(home, { recursive: true, force: true });
});

const ORIGIN = "http://localhost:8000";
async function get(path: string) {
  const response = await gateway.handle(new Request(`${ORIGIN}${path}`));
  return { status: response.status, html: await response.text(), location: response.headers.get("location") };
}
async function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );
  return { status: response.status, html: await response.text(), location: response.headers.get("location") };
}

describe("profiles pages", () => {
  test("empty list invites to create the default profile; the nav marks Profiles", async () => {
    const page = await get("/profiles");
    expect(page.status).toBe(200);
    expect(page.html).toContain("No profiles yet");
    expect(page.html).toContain('href="/profiles/new?name=default"');
    expect(page.html).toMatch(/<a href="\/profiles" aria-current="page">Profiles<\/a>/);
    const form = await get("/profiles/new?name=default");
    expect(form.html).toContain('name="name" type="text" value="default"');
    expect(form.html).toContain('method="post" action="/profiles"');
  });

  test("a rejected form shows the API's message, keeps the values, marks the field, and escapes everything", async () => {
    const first = await post("/profiles", { name: "other", schema: "local", home_dir: join(home, "o"), cache_dir: cache });
    expect(first.status).toBe(409);
    expect(first.html).toContain("A profile named &quot;default&quot; is required first");

    const evil = await post("/profiles", { name: "default", schema: "local", home_dir: "<script>alert(1)</script>", cache_dir: cache });
    expect(evil.status).toBe(400);
    expect(evil.html).not.toContain("<script>alert");
    expect(evil.html).toContain("home_dir &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; is not an absolute path");
    expect(evil.html).toMatch(/name="home_dir"[^>]*value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"[^>]*aria-invalid="true"/);

    const missing = await post("/profiles", { name: "default", schema: "local", home_dir: join(home, "d"), cache_dir: join(home, "no-cache") });
    expect(missing.status).toBe(422);
    expect(missing.html).toContain("does not exist. svc never creates the cache folder");
    // htmx does not swap error statuses: a boosted form gets the same page as 200.
    const boosted = await post("/profiles", { name: "bad name", schema: "local" }, { "hx-request": "true" });
    expect(boosted.status).toBe(200);
    expect(boosted.html).toContain("is not allowed: 1–63 characters");
    const port = await post("/profiles", { name: "default", schema: "slurm", host: "h", user: "u", home: "/h", cache: "/c", port: "abc" });
    expect(port.status).toBe(400);
    expect(port.html).toContain("is not a port");
  });

  test("create → redirect to the details page with what the checks did; update; remove", async () => {
    const created = await post("/profiles", { name: "default", schema: "local", home_dir: join(home, "d"), cache_dir: cache, host: "ignored for local" });
    expect(created.status).toBe(303);
    expect(created.location).toStartWith("/profiles/default?notice=");
    const details = await get(created.location!);
    expect(details.html).toContain("Created profile default.");
    expect(details.html).toContain(`Created home_dir ${join(home, "d")}.`);
    expect(details.html).toContain("The default profile is required and cannot be removed");

    const badUpdate = await post("/profiles/default", { schema: "local", home_dir: join(home, "d"), cache_dir: join(home, "gone") });
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.html).toMatch(/name="cache_dir"[^>]*aria-invalid="true"/);
    const update = await post("/profiles/default", { schema: "local", home_dir: join(home, "d"), cache_dir: home });
    expect(update.status).toBe(303);
    expect((await get("/profiles/default")).html).toContain(`<dt>cache_dir</dt><dd><code>${home}</code></dd>`);

    expect((await post("/profiles/default/remove", {})).status).toBe(409);
    await post("/profiles", { name: "two", schema: "local", home_dir: join(home, "two"), cache_dir: cache });
    expect((await get("/profiles")).html).toContain('<a href="/profiles/two">two</a>');
    expect((await get("/profiles/two/remove")).html).toContain("Remove profile two?");
    const removed = await post("/profiles/two/remove", {});
    expect(removed.status).toBe(303);
    expect(removed.location).toBe("/profiles?removed=two");
    expect((await get("/profiles?removed=two")).html).toContain("Removed profile two.");
    expect((await get("/profiles/two")).status).toBe(404);
  });

  test("a broken profiles.cfg is shown with its line, as a 409 page", async () => {
    writeFileSync(file, "[default]\nschema local\n");
    const page = await get("/profiles");
    expect(page.status).toBe(409);
    expect(page.html).toContain("profiles.cfg needs fixing");
    expect(page.html).toContain("line 2");
  });
});

describe("a slurm profile's new host in the profile form", () => {
  test("the form shows the host key's fingerprint to accept; ticked, the fingerprint goes to the API", async () => {
    const bodies: Record<string, unknown>[] = [];
    const fingerprint = `SHA256:${"k".repeat(43)}`;
    const stub = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        if (body.host_key_fingerprint !== fingerprint) {
          return Response.json(
            { error: "ssh_host_key_unknown", message: "The authenticity of host 'cluster.example' can't be established", details: { field: "host", name: "cluster.example", type: "ssh-ed25519", fingerprint } },
            { status: 422 },
          );
        }
        const { host_key_fingerprint: _, ...profile } = body;
        return Response.json({ profile, notices: ["Permanently added 'cluster.example'"] }, { status: 201 });
      },
    });
    const withStub = createGateway({
      settings: loadSettings({ SVC_HOME_DIR: join(home, "svc-stub"), HOME: home }),
      internalSecret: SECRET,
      upstreams: { "profile-svc": `http://127.0.0.1:${stub.port}`, "model-svc": "http://127.0.0.1:9", "orchestrator-svc": "http://127.0.0.1:9" },
      authToken: undefined,
    });
    const send = async (form: Record<string, string>) => {
      const response = await withStub.handle(
        new Request(`${ORIGIN}/profiles`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN }, body: new URLSearchParams(form).toString() }),
      );
      return { status: response.status, html: await response.text() };
    };
    const form = { name: "cluster", schema: "slurm", host: "cluster.example", user: "me", home: "~/svc", cache: "/c" };
    try {
      const asked = await send(form);
      expect(asked.status).toBe(422);
      expect(asked.html).toContain(`name="host_key_fingerprint" value="${fingerprint}"`);
      expect(bodies[0].host_key_fingerprint).toBeUndefined();
      const accepted = await send({ ...form, host_key_fingerprint: fingerprint });
      expect(accepted.status).toBe(303);
      expect(bodies[1].host_key_fingerprint).toBe(fingerprint);
    } finally {
      stub.stop(true);
    }
  });
});

describe("a slurm profile's job defaults in the UI", () => {
  test("the details page shows account, partition and qos, and its form holds them", async () => {
    mkdirSync(join(home, "svc"), { recursive: true });
    writeFileSync(file, `[default]\nschema = local\nhome_dir = ${home}/h\ncache_dir = ${cache}\n\n[hpc]\nschema = slurm\nhost = login.example\nuser = me\nhome = ~/svc\ncache = /shared\naccount = proj-1\nqos = high\n`);
    const { status, html } = await get("/profiles/hpc");
    expect(status).toBe(200);
    expect(html).toContain("<dt>account</dt><dd><code>proj-1</code></dd>");
    expect(html).toContain("<dt>qos</dt><dd><code>high</code></dd>");
    expect(html).toMatch(/id="f-account" name="account" type="text" value="proj-1"/);
    expect(html).toContain('id="f-partition" name="partition" type="text" value=""');
  });
});

describe("a profile's partitions and GPUs in the UI", () => {
  test("the details page lists the partitions (escaped), with GPU memory and its source and the table's note; gpu_memory saved from the form overrides it", async () => {
    const hpc = await get("/profiles/hpc");
    expect(hpc.status).toBe(200);
    expect(hpc.html).toContain("<h2>Partitions and GPUs</h2>");
    expect(hpc.html).toContain("<td>cpu (default)</td><td>2</td>");
    expect(hpc.html).toContain("<td>4 × &lt;a100&gt;</td><td>unknown (set gpu_memory)</td>");
    expect(hpc.html).toContain("GPU memory unknown for type &lt;a100&gt;: set gpu_memory");
    expect(hpc.html).toContain('id="f-gpu_memory" name="gpu_memory" type="text" value=""');

    writeFileSync(file, `[default]\nschema = local\nhome_dir = ${home}/h\ncache_dir = ${cache}\n`);
    const saved = await post("/profiles/default", { schema: "local", home_dir: `${home}/h`, cache_dir: cache, gpu_memory: "60G" });
    expect(saved.status).toBe(303);
    const local = await get("/profiles/default");
    expect(local.html).toContain("<dt>gpu_memory</dt><dd><code>60G</code></dd>");
    expect(local.html).toContain("<td>1 × h100</td><td>60.0 GiB (profile)</td>");
    const bad = await post("/profiles/default", { schema: "local", home_dir: `${home}/h`, cache_dir: cache, gpu_memory: "sixty" });
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/name="gpu_memory"[^>]*value="sixty"[^>]*aria-invalid="true"/);
  });
});
