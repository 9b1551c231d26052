import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A package (or a version of it) the registry does not have. */
export class NpmPackageMissing extends Error {
  constructor(
    readonly name: string,
    readonly version: string,
    /** The registry's latest version of the package, when it has the package at all. */
    readonly latest?: string,
  ) {
    super(`the npm registry has no ${latest === undefined ? `package ${name}` : `${name}@${version} (latest: ${latest})`}`);
    this.name = "NpmPackageMissing";
  }
}

/**
 * The npm registry this machine is configured with (`npm config get registry`, which also reads
 * npm_config_registry and .npmrc files), so svc fetches from the same place npm install does.
 */
export async function configuredRegistry(env: Record<string, string | undefined> = process.env): Promise<string> {
  let proc;
  try {
    proc = Bun.spawn(["npm", "config", "get", "registry"], { stdout: "pipe", stderr: "pipe", env });
  } catch {
    throw new Error("npm is not installed here, so svc cannot tell which npm registry to fetch packages from: install npm, or set npm_config_registry.");
  }
  const [out, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const url = out.trim().split("\n").pop() ?? "";
  if (code !== 0 || !/^https?:\/\//.test(url)) throw new Error(`'npm config get registry' did not name a registry (${url || `exit ${code}`}): set npm_config_registry.`);
  return url.endsWith("/") ? url : `${url}/`;
}

interface Dist {
  tarball: string;
  integrity?: string;
  shasum?: string;
}

/** Checks `bytes` against the registry's Subresource Integrity string (any of its hashes), else its sha1 shasum. */
export function verifyIntegrity(bytes: Uint8Array, dist: Pick<Dist, "integrity" | "shasum">): boolean {
  const checks = (dist.integrity ?? "").split(/\s+/).filter(Boolean);
  for (const check of checks) {
    const dash = check.indexOf("-");
    const algorithm = check.slice(0, dash);
    if (!["sha512", "sha384", "sha256"].includes(algorithm)) continue;
    return createHash(algorithm).update(bytes).digest("base64") === check.slice(dash + 1).split("?")[0];
  }
  if (dist.shasum) return createHash("sha1").update(bytes).digest("hex") === dist.shasum;
  return false;
}

/**
 * npm packages fetched from the registry into a cache folder (svc's home), each once: its tarball's
 * integrity checked against the registry's metadata before it is unpacked, and the unpacked folder
 * renamed into place only when complete. `dir(name, version)` answers the package's folder.
 */
export class NpmPackages {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly cacheDir: string,
    private readonly registry: () => Promise<string> = () => configuredRegistry(),
  ) {}

  dir(name: string, version: string): Promise<string> {
    const key = `${name}@${version}`;
    let found = this.pending.get(key);
    if (!found) {
      found = this.fetch(name, version).finally(() => this.pending.delete(key));
      this.pending.set(key, found);
    }
    return found;
  }

  private async fetch(name: string, version: string): Promise<string> {
    const target = join(this.cacheDir, `${name.replace("/", "+")}@${version}`);
    if (existsSync(join(target, "package.json"))) return target;
    const registry = await this.registry();
    const metadata = await fetch(`${registry}${name.replace("/", "%2f")}`, { headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" } });
    if (metadata.status === 404) throw new NpmPackageMissing(name, version);
    if (!metadata.ok) throw new Error(`the npm registry answered ${metadata.status} for ${name}`);
    const document = (await metadata.json()) as { "dist-tags"?: { latest?: string }; versions?: Record<string, { dist?: Dist }> };
    const dist = document.versions?.[version]?.dist;
    if (!dist?.tarball) throw new NpmPackageMissing(name, version, document["dist-tags"]?.latest ?? "none");
    const download = await fetch(dist.tarball);
    if (!download.ok) throw new Error(`downloading ${name}@${version} failed: the registry answered ${download.status}`);
    const bytes = new Uint8Array(await download.arrayBuffer());
    if (!verifyIntegrity(bytes, dist)) throw new Error(`${name}@${version} from ${registry} does not match the registry's integrity hash: not used`);

    mkdirSync(this.cacheDir, { recursive: true });
    const work = join(this.cacheDir, `.incoming-${randomBytes(6).toString("hex")}`);
    mkdirSync(work);
    try {
      writeFileSync(join(work, "package.tgz"), bytes);
      const unpack = Bun.spawnSync(["tar", "-xzf", "package.tgz", "--no-same-owner"], { cwd: work, stdout: "pipe", stderr: "pipe" });
      if (unpack.exitCode !== 0) throw new Error(`unpacking ${name}@${version} failed: ${unpack.stderr.toString().trim()}`);
      try {
        renameSync(join(work, "package"), target);
      } catch (error) {
        if (!existsSync(join(target, "package.json"))) throw error;
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return target;
  }
}
