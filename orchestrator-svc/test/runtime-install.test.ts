/**
 * Installing the svc runtime bundle on a cluster, with the cluster's side played by this machine
 * (LocalConnection, the same scripts a login node runs): versions appear only whole and checked,
 * a cut-off or damaged upload leaves nothing that counts, concurrent installs share one upload,
 * versions sit side by side and are listed and removed. The real cluster is in tests/app.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SlurmProfile } from "@svc/contracts";
import { LocalConnection } from "@svc/ssh";
import type { Bundle } from "../src/engines/slurm/runtime/bundles";
import { ClusterRuntime } from "../src/engines/slurm/runtime/cluster-runtime";
import { RuntimeInstalls } from "../src/engines/slurm/runtime/installs";
import { fakeBundle } from "./fake-bundle";

const home = mkdtempSync(join(tmpdir(), "svc-runtime-install-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const profile: SlurmProfile = { name: "hpc", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/shared" };
const runtimeDir = join(home, "svc", "runtime");

/** A cluster runtime whose bundle is whatever `current.bundle` is now, on a connection that counts its uploads. */
function cluster(initial: Bundle) {
  const connection = new LocalConnection({ env: { PATH: process.env.PATH, HOME: home } });
  let uploads = 0;
  const send = connection.send.bind(connection);
  connection.send = (command, data, options) => {
    uploads++;
    return send(command, data, options);
  };
  const current = { bundle: initial };
  const installs = new RuntimeInstalls();
  const runtime = new ClusterRuntime(connection, () => profile, { bundles: { forMachine: async () => current.bundle }, installs });
  return { runtime, current, installs, connection, uploads: () => uploads };
}

const leftovers = () => readdirSync(runtimeDir).filter((name) => name.startsWith("."));

describe("the svc runtime on a cluster", () => {
  test("a first install sends the bundle into <home>/runtime/<version>; the next finds it and sends nothing", async () => {
    const one = await fakeBundle("one");
    const { runtime, uploads, installs } = cluster(one);
    const first = await runtime.ensure();
    expect(first.install).toMatchObject({ state: "done", version: one.id, alreadyInstalled: false });
    expect(first.install!.bytesSent).toBeGreaterThan(0);
    expect(first.install!.notes[0]).toContain(`Installed the svc runtime ${one.id} (x64) on localhost in ~/svc/runtime/${one.id}`);
    expect(first.install!.notes[0]).toContain("it had none");
    expect(readdirSync(join(runtimeDir, one.id)).sort()).toEqual(["app", "bin", "bundle.json"]);
    expect(Bun.spawnSync([join(runtimeDir, one.id, "bin", "bun"), "ok"]).stdout.toString()).toBe("fake bun ok\n");
    expect(leftovers()).toEqual([]);

    expect((await runtime.ensure()).install).toBeUndefined();
    const again = await runtime.install();
    expect(again).toMatchObject({ state: "done", alreadyInstalled: true, bytesSent: 0 });
    expect(uploads()).toBe(1);
    expect(installs.get(again.id)).toEqual(again);
  });

  test("two installs at once share one upload", async () => {
    const shared = await fakeBundle("shared");
    const { runtime, uploads } = cluster(shared);
    const [a, b] = await Promise.all([runtime.ensure(), runtime.ensure()]);
    expect(a.install!.id).toBe(b.install!.id);
    expect(uploads()).toBe(1);
  });

  test("a changed bundle is a new version, installed beside the old one; ls shows both and rm removes one", async () => {
    const { runtime, current } = cluster(await fakeBundle("one"));
    await runtime.ensure();
    const old = current.bundle.id;
    current.bundle = await fakeBundle("two");
    const second = await runtime.ensure();
    expect(second.install!.version).not.toBe(old);
    expect(second.install!.notes[0]).toContain(`it had only other versions (`);
    const listed = await runtime.list();
    expect(listed.versions.map((v) => v.version)).toEqual(expect.arrayContaining([old, current.bundle.id]));
    expect(listed.versions.find((v) => v.version === old)).toMatchObject({ arch: "x64", tasks: ["text-generation"] });
    expect(listed.versions.every((v) => v.sizeBytes > 0 && !Number.isNaN(Date.parse(v.installedAt)))).toBe(true);
    expect(await runtime.remove([old, "ffffffffffffffff"])).toEqual([old]);
    expect((await runtime.list()).versions.map((v) => v.version)).not.toContain(old);
  });

  test("an upload cut off midway leaves nothing that counts as installed, and the next one installs cleanly", async () => {
    const big = await fakeBundle("cut", { bigBytes: 8 * 1024 * 1024, failAfterBytes: 4 * 1024 * 1024 });
    const { runtime, current } = cluster(big);
    await expect(runtime.ensure()).rejects.toThrow(/was not installed on localhost: .*Nothing of it counts as installed/);
    expect(existsSync(join(runtimeDir, big.id))).toBe(false);
    expect(leftovers()).toEqual([]);
    expect((await runtime.list()).versions.map((v) => v.version)).not.toContain(big.id);

    current.bundle = await fakeBundle("cut", { bigBytes: 8 * 1024 * 1024 });
    const retried = await runtime.ensure();
    expect(retried.install!.state).toBe("done");
    expect(existsSync(join(runtimeDir, current.bundle.id, "app", "filler.bin"))).toBe(true);
  });

  test("files that do not hash to the version on the cluster are refused and removed", async () => {
    const real = await fakeBundle("real");
    const forged: Bundle = { ...(await fakeBundle("forged")), id: real.id.replace(/^./, (c) => (c === "0" ? "1" : "0")) };
    const { runtime } = cluster(forged);
    await expect(runtime.ensure()).rejects.toThrow(/hash to [0-9a-f]{16}, not /);
    expect(existsSync(join(runtimeDir, forged.id))).toBe(false);
    expect(leftovers()).toEqual([]);
  });
});
