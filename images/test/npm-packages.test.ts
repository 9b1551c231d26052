/**
 * npm packages fetched for the cluster bundle, against a stand-in registry on loopback serving the
 * registry's metadata shape: kept only when the tarball matches the metadata's integrity hash,
 * fetched once, and a version the registry does not have is named with its latest one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NpmPackageMissing, NpmPackages } from "../index";

const work = mkdtempSync(join(tmpdir(), "svc-npm-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A package tarball as npm packs it: package/… in a .tgz. */
function tarball(name: string, version: string): Uint8Array {
  const dir = join(work, `src-${name.replace("/", "+")}-${version}`, "package");
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version }));
  writeFileSync(join(dir, "bin", "tool"), "#!/bin/sh\necho tool\n", { mode: 0o755 });
  return new Uint8Array(Bun.spawnSync(["tar", "-czf", "-", "-C", join(dir, ".."), "package"]).stdout);
}

const good = tarball("@acme/tool-linux-arm64", "1.2.3");
const integrity = `sha512-${createHash("sha512").update(good).digest("base64")}`;
let served = { body: good, integrity };
const requests: string[] = [];
const registry: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path === "/@acme%2ftool-linux-arm64") {
      const base: string = `http://127.0.0.1:${registry.port}`;
      return Response.json({ "dist-tags": { latest: "1.2.3" }, versions: { "1.2.3": { dist: { tarball: `${base}/tarballs/tool-1.2.3.tgz`, integrity: served.integrity } } } });
    }
    if (path === "/tarballs/tool-1.2.3.tgz") return new Response(Buffer.from(served.body));
    return new Response("not found", { status: 404 });
  },
});
afterAll(() => registry.stop(true));
const registryUrl = async () => `http://127.0.0.1:${registry.port}/`;

describe("npm packages for the cluster bundle", () => {
  test("a tarball that does not match the registry's integrity hash is refused, and nothing is kept", async () => {
    served = { body: tarball("@acme/tool-linux-arm64", "1.2.3-tampered"), integrity };
    const cache = join(work, "cache-bad");
    await expect(new NpmPackages(cache, registryUrl).dir("@acme/tool-linux-arm64", "1.2.3")).rejects.toThrow("does not match the registry's integrity hash");
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
  });

  test("a matching one is unpacked into the cache, once", async () => {
    served = { body: good, integrity };
    const cache = join(work, "cache-good");
    const packages = new NpmPackages(cache, registryUrl);
    requests.length = 0;
    const [a, b] = await Promise.all([packages.dir("@acme/tool-linux-arm64", "1.2.3"), packages.dir("@acme/tool-linux-arm64", "1.2.3")]);
    expect(a).toBe(b);
    expect(JSON.parse(readFileSync(join(a, "package.json"), "utf8")).version).toBe("1.2.3");
    expect(Bun.spawnSync([join(a, "bin", "tool")]).stdout.toString()).toBe("tool\n");
    expect(await new NpmPackages(cache, registryUrl).dir("@acme/tool-linux-arm64", "1.2.3")).toBe(a);
    expect(requests.filter((path) => path.startsWith("/tarballs/"))).toHaveLength(1);
    expect(readdirSync(cache)).toEqual(["@acme+tool-linux-arm64@1.2.3"]);
  });

  test("a version or package the registry does not have says so, with its latest version", async () => {
    const packages = new NpmPackages(join(work, "cache-missing"), registryUrl);
    const missing = await packages.dir("@acme/tool-linux-arm64", "9.9.9").catch((error) => error);
    expect(missing).toBeInstanceOf(NpmPackageMissing);
    expect(missing.message).toBe("the npm registry has no @acme/tool-linux-arm64@9.9.9 (latest: 1.2.3)");
    expect((await packages.dir("@acme/nothing", "1.0.0").catch((error) => error)).message).toBe("the npm registry has no package @acme/nothing");
  });
});
