/**
 * GET /api/profiles/{name}/gpus against the real profile-svc app: its refusals (404, 400), a local
 * profile's GPUs read with the profile's check and kept in profile-svc's data folder (not in
 * profiles.cfg), read again on ?refresh=true (nvidia-smi here is a stand-in that prints what an
 * H100 machine printed), gpu_memory's checks and its override. Slurm profiles: tests/app/profile-gpus.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts";
import { createServiceApp } from "@svc/platform";
import { checkedHandle } from "@svc/testing";
import { gpusController } from "../src/gpus";
import { readLocalGpus } from "../src/gpus/local-gpus";
import { GpusService } from "../src/gpus/service";
import { profilesController } from "../src/profiles";
import { ProfileService } from "../src/profiles/service";

const SECRET = "profile-gpus-test-secret".padEnd(40, "x");
const home = mkdtempSync(join(tmpdir(), "svc-profile-gpus-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const file = join(home, "svc", "profiles.cfg");
const gpuCacheDir = join(home, "svc", "data", "profile-svc", "gpus");
const cache = join(home, "cache");
mkdirSync(cache);

/** A stand-in nvidia-smi printing `gpus` lines of the captured H100 output (none: it fails as without a driver). */
const smi = join(home, "nvidia-smi");
const captured = readFileSync(join(import.meta.dir, "fixtures", "nvidia-smi-h100-noheader.txt"), "utf8");
const withGpus = (count: number) => {
  writeFileSync(smi, count > 0 ? `#!/bin/sh\nprintf '%s' '${captured.repeat(count)}'\n` : "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n");
  chmodSync(smi, 0o755);
};
withGpus(1);

const profiles = new ProfileService({ profilesFile: file, userHome: home, env: { HOME: home, PATH: "/usr/bin:/bin" }, gpuCacheDir, localGpus: () => readLocalGpus(new Date(), [smi]) });
const app = createServiceApp("profile-svc", SECRET, [profilesController(profiles), gpusController(new GpusService(profiles))]);
const handle = await checkedHandle(app, SECRET);

async function call(method: string, path: string, body?: unknown) {
  const response = await handle(
    new Request(`http://localhost${path}`, { method, headers: { [INTERNAL_SECRET_HEADER]: SECRET, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

describe("GET /api/profiles/{name}/gpus", () => {
  test("before svc init: 404 no_profiles; then 404 naming the profiles for an unknown one", async () => {
    expect((await call("GET", "/api/profiles/default/gpus")).body.error).toBe("no_profiles");
    const created = await call("POST", "/api/profiles", { name: "default", schema: "local", home_dir: join(home, "default"), cache_dir: cache });
    expect(created.status).toBe(201);
    expect(created.body.gpus).toBeUndefined();
    const missing = await call("GET", "/api/profiles/nope/gpus");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("not_found");
    expect(missing.body.message).toContain("Profiles: default");
  });

  test("?refresh must be a boolean (400)", async () => {
    const bad = await call("GET", "/api/profiles/default/gpus?refresh=maybe");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_request");
  });

  test("a local profile: the GPUs its check read, kept in profile-svc's data folder, not in profiles.cfg", async () => {
    const gpus = await call("GET", "/api/profiles/default/gpus");
    expect(gpus.status).toBe(200);
    expect(gpus.body).toMatchObject({ profile: "default", source: "docker" });
    expect(gpus.body.partitions).toHaveLength(1);
    expect(gpus.body.partitions[0]).toMatchObject({ name: "local", default: true, nodes: 1, gpusPerNode: 1, gpuType: "h100", gpuMemoryBytes: 81559 * MIB, gpuMemorySource: "device", timeLimit: null });
    expect(existsSync(join(gpuCacheDir, "default.json"))).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain("h100");
  });

  test("without refresh the last reading is answered; ?refresh=true reads again", async () => {
    const before = (await call("GET", "/api/profiles/default/gpus")).body;
    withGpus(0);
    const kept = (await call("GET", "/api/profiles/default/gpus")).body;
    expect(kept).toEqual(before);
    const again = (await call("GET", "/api/profiles/default/gpus?refresh=true")).body;
    expect(again.partitions[0]).toMatchObject({ gpusPerNode: 0, gpuType: null, gpuMemoryBytes: null, gpuMemorySource: "unknown" });
    expect(Date.parse(again.checkedAt)).toBeGreaterThanOrEqual(Date.parse(before.checkedAt));
  });

  test("gpu_memory: refused with what to give when it is not a size (400), and overrides the device once set; the profile's check reads the GPUs again", async () => {
    withGpus(2);
    const bad = await call("PUT", "/api/profiles/default", { gpu_memory: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ field: "gpu_memory" });
    expect(bad.body.message).toContain('"lots" is not a size');
    const set = await call("PUT", "/api/profiles/default", { gpu_memory: "h100:70G" });
    expect(set.status).toBe(200);
    expect(set.body.profile.gpu_memory).toBe("h100:70G");
    expect(readFileSync(file, "utf8")).toContain("gpu_memory = h100:70G");
    const gpus = (await call("GET", "/api/profiles/default/gpus")).body;
    expect(gpus.partitions[0]).toMatchObject({ gpusPerNode: 2, gpuMemoryBytes: 70 * GIB, gpuMemorySource: "profile" });
    const removed = await call("PUT", "/api/profiles/default", { gpu_memory: "" });
    expect(removed.body.profile.gpu_memory).toBeUndefined();
    expect((await call("GET", "/api/profiles/default/gpus")).body.partitions[0]).toMatchObject({ gpuMemoryBytes: 81559 * MIB, gpuMemorySource: "device" });
  });

  test("a removed profile's reading goes with it", async () => {
    expect((await call("POST", "/api/profiles", { name: "other", schema: "local", home_dir: join(home, "other"), cache_dir: cache })).status).toBe(201);
    expect(existsSync(join(gpuCacheDir, "other.json"))).toBe(true);
    expect((await call("DELETE", "/api/profiles/other")).status).toBe(204);
    expect(existsSync(join(gpuCacheDir, "other.json"))).toBe(false);
  });

  test("a gpu_memory in profiles.cfg that is not a size: 409 naming the line", async () => {
    writeFileSync(file, `${readFileSync(file, "utf8")}\n[broken]\nschema = local\nhome_dir = ${home}\ncache_dir = ${cache}\ngpu_memory = big\n`);
    const answer = await call("GET", "/api/profiles/default/gpus");
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe("profiles_file_invalid");
    expect(answer.body.message).toContain('gpu_memory "big"');
  });
});
