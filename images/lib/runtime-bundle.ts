import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { dependencyClosure, type InstalledPackage } from "./dependency-closure";
import { runtimeTree, type PackageReplacement, type TreeEntry } from "./image-tree";
import { NpmPackageMissing, type NpmPackages } from "./npm-packages";
import { tarSize, tarStream, type TarEntry } from "./tar-stream";

/** The CPU architectures svc ships runtimes for, by Node's names. */
export const BUNDLE_ARCHES = ["x64", "arm64"] as const;
export type BundleArch = (typeof BUNDLE_ARCHES)[number];

/** A machine's `uname -m` as a bundle architecture, or undefined for one svc has no runtime for. */
export function bundleArch(machine: string): BundleArch | undefined {
  const known: Record<string, BundleArch> = { x86_64: "x64", amd64: "x64", aarch64: "arm64", arm64: "arm64" };
  return known[machine.trim()];
}

/**
 * Bun's own npm package with the Linux executable, per architecture. On x64 it is always the
 * "baseline" build, which needs no AVX2: compute nodes often lack it, and svc cannot see them (only
 * the login node) before a job lands there. The runtimes' heavy work is in llama.cpp/whisper.cpp,
 * which pick their CPU paths themselves, so the baseline Bun costs them little.
 */
const BUN_PACKAGES: Record<BundleArch, string> = { x64: "@oven/bun-linux-x64-baseline", arm64: "@oven/bun-linux-aarch64" };

/** The version of Bun this installation runs (node_modules/bun). */
export const bunVersionOf = (root: string) => versionOf(join(root, "node_modules", "bun"));

/**
 * Bun's Linux executable for `arch`, at the version this installation runs, from the npm registry
 * (cached by `packages`): what a cluster bundle and a runtime image built on the ordinary path
 * carry, whatever system this machine is.
 */
export async function linuxBun(root: string, arch: BundleArch, packages: NpmPackages): Promise<{ path: string; bunPackage: string; version: string }> {
  const version = bunVersionOf(root);
  const dir = await packages.dir(BUN_PACKAGES[arch], version);
  return { path: join(dir, "bin", "bun"), bunPackage: BUN_PACKAGES[arch], version };
}
/** How a native module's npm package names its Linux build per architecture (`@node-llama-cpp/linux-x64`). */
const PLATFORM_TOKEN: Record<BundleArch, string> = { x64: "linux-x64", arm64: "linux-arm64" };

/** Where things are inside an installed bundle (`<home>/runtime/<version id>/`). */
export const BUNDLE_LAYOUT = {
  bun: "bin/bun",
  info: "bundle.json",
  main: (task: string) => `app/runtimes/${task}/src/main.ts`,
} as const;

/** What `bundle.json` says about a bundle. */
export interface BundleInfo {
  arch: BundleArch;
  bun: string;
  bunPackage: string;
  tasks: string[];
}

export interface RuntimeBundle {
  /** Content hash of every file, link and executable bit (what `bundleHashScript` computes on the cluster). */
  id: string;
  info: BundleInfo;
  /** Tasks this architecture's bundle cannot carry, and why. */
  unavailable: { task: string; reason: string }[];
  files: number;
  /** Size of its files, unpacked. */
  bytes: number;
  /** Size of its tar stream. */
  tarBytes: number;
  /** The bundle as one tar stream (paths relative to the bundle folder). */
  tar(): ReadableStream<Uint8Array>;
}

export interface BundleOptions {
  /** The svc installation: runtimes/ and node_modules/. */
  root: string;
  arch: BundleArch;
  tasks: readonly string[];
  packages: NpmPackages;
}

type Entry = { path: string; mode: number; size: number; sha256: string; source?: string; data?: Uint8Array } | { path: string; symlink: string };

const fileHashes = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

/** sha256 of a file, recomputed only when its size or time changed. */
function fileHash(path: string, size: number, mtimeMs: number): string {
  const known = fileHashes.get(path);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.sha256;
  const sha256 = new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
  fileHashes.set(path, { size, mtimeMs, sha256 });
  return sha256;
}

function fileEntry(path: string, source: string, executable?: boolean): Entry {
  const stat = statSync(source);
  return { path, source, size: stat.size, mode: (executable ?? (stat.mode & 0o100) !== 0) ? 0o755 : 0o644, sha256: fileHash(source, stat.size, stat.mtimeMs) };
}

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The text whose sha256 is the version id: `sha256sum` lines of every file (by path), `path -> target`
 * of every link, `x path` of every executable file, each block in byte order. `bundleHashScript`
 * prints the same from the unpacked files with find, sort and sha256sum.
 */
function manifest(entries: Entry[]): string {
  const rel = (path: string) => `./${path}`;
  const files = entries.filter((e): e is Extract<Entry, { sha256: string }> => "sha256" in e).sort((a, b) => bytewise(rel(a.path), rel(b.path)));
  const links = entries.flatMap((e) => ("symlink" in e ? [`${rel(e.path)} -> ${e.symlink}`] : [])).sort(bytewise);
  const executables = files.filter((f) => f.mode & 0o100).map((f) => `x ${rel(f.path)}`).sort(bytewise);
  return [...files.map((f) => `${f.sha256}  ${rel(f.path)}`), ...links, ...executables].map((line) => `${line}\n`).join("");
}

/**
 * Shell commands that print the version id of the unpacked bundle in folder `dirWord` (a shell
 * word), computed from the files as they are there: it equals the bundle's id only if every file,
 * link and executable bit arrived as sent and nothing else is there. They change directory: run
 * them in a subshell, e.g. `$(…)`. Needs GNU find and coreutils.
 */
export function bundleHashScript(dirWord: string): string {
  return [
    `cd ${dirWord} && {`,
    "  find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum",
    "  find . -type l -printf '%p -> %l\\n' | LC_ALL=C sort",
    "  find . -type f -perm -u+x -printf 'x %p\\n' | LC_ALL=C sort",
    "} | sha256sum | cut -c1-16",
  ].join("\n");
}

/** The installed native packages of the host's architecture in a runtime's dependencies. */
function nativePackages(root: string, task: string, host: BundleArch): InstalledPackage[] {
  const token = new RegExp(`(^|[/-])${PLATFORM_TOKEN[host]}($|-)`);
  return dependencyClosure(root, join(root, "runtimes", task)).filter((pkg) => token.test(pkg.name));
}

const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;

/** The same package built for `target`: installed here already at that version, or fetched from the registry. */
async function counterpart(root: string, pkg: InstalledPackage, host: BundleArch, target: BundleArch, packages: NpmPackages): Promise<PackageReplacement> {
  const name = pkg.name.replace(PLATFORM_TOKEN[host], PLATFORM_TOKEN[target]);
  const version = versionOf(pkg.dir);
  const local = join(root, "node_modules", name);
  if (existsSync(join(local, "package.json")) && versionOf(local) === version) return { name, dir: local };
  return { name, dir: await packages.dir(name, version) };
}

/**
 * The runtime bundle for one architecture: Bun's executable for it, and the runtime tree of each
 * task exactly as `runtimeTree` stages it for the images, with the native modules swapped for that
 * architecture's builds where it is not this machine's. A task whose native module has no build
 * for the architecture is left out and reported in `unavailable`, never shipped broken.
 */
export async function runtimeBundle(options: BundleOptions): Promise<RuntimeBundle> {
  const { root, arch, packages } = options;
  if (process.platform !== "linux") throw new Error(`svc makes cluster runtimes on Linux only (this is ${process.platform})`);
  const host: BundleArch = process.arch === "arm64" ? "arm64" : "x64";
  const bun = await linuxBun(root, arch, packages);

  const tree = new Map<string, TreeEntry>();
  const tasks: string[] = [];
  const unavailable: { task: string; reason: string }[] = [];
  for (const task of options.tasks) {
    const replacements = new Map<string, PackageReplacement>();
    try {
      if (host !== arch) {
        for (const pkg of nativePackages(root, task, host)) replacements.set(pkg.linkPath, await counterpart(root, pkg, host, arch, packages));
      }
    } catch (error) {
      if (!(error instanceof NpmPackageMissing)) throw error;
      unavailable.push({ task, reason: `${task} needs the ${arch} build of a native module, and ${error.message}` });
      continue;
    }
    for (const entry of runtimeTree(root, task, { replace: (pkg) => replacements.get(pkg.linkPath) })) tree.set(entry.target, entry);
    tasks.push(task);
  }
  if (tasks.length === 0) throw new Error(`svc has no runtime for ${arch}: ${unavailable.map((u) => `${u.task}: ${u.reason}`).join("; ")}`);

  const info: BundleInfo = { arch, bun: bun.version, bunPackage: bun.bunPackage, tasks };
  const infoData = new TextEncoder().encode(`${JSON.stringify(info, null, 2)}\n`);
  const entries: Entry[] = [
    fileEntry(BUNDLE_LAYOUT.bun, bun.path, true),
    { path: BUNDLE_LAYOUT.info, mode: 0o644, size: infoData.length, data: infoData, sha256: createHash("sha256").update(infoData).digest("hex") },
  ];
  for (const entry of tree.values()) {
    const path = `app/${entry.target}`;
    entries.push("symlink" in entry ? { path, symlink: entry.symlink } : fileEntry(path, entry.source));
  }
  entries.sort((a, b) => bytewise(a.path, b.path));
  const id = createHash("sha256").update(manifest(entries)).digest("hex").slice(0, 16);
  const files = entries.filter((e) => !("symlink" in e));
  const tarEntries = entries.map((e): TarEntry => {
    if ("symlink" in e) return e;
    return e.data ? { path: e.path, mode: e.mode, size: e.size, data: e.data } : { path: e.path, mode: e.mode, size: e.size, source: e.source! };
  });
  return {
    id,
    info,
    unavailable,
    files: files.length,
    bytes: files.reduce((sum, e) => sum + ("size" in e ? e.size : 0), 0),
    tarBytes: tarSize(tarEntries),
    tar: () => tarStream(tarEntries),
  };
}
