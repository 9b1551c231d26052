import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { debianPackages } from "./debian-packages";
import type { BuildPath } from "./base-choice";
import { docker, dockerShowingProgress, imageExists } from "./docker-cli";
import { runtimeTree, type TreeEntry } from "./image-tree";

/** Shared libraries the prebuilt llama.cpp / whisper.cpp binaries load that the Debian bases lack. */
const RUNTIME_DEBS = ["libgomp1"];

export interface BuildOptions {
  /** `debootstrap` (default): .deb files staged from the host's apt, no network. `pull`: the base's own apt installs them. */
  path?: BuildPath;
  /** Stream docker build's output (its Step lines) to stderr. */
  showProgress?: boolean;
  /** Image name; default svc-<runtime>. */
  name?: string;
  /** The tag given besides the content tag; default latest. */
  alsoTag?: string;
}

export interface RuntimeImage {
  runtime: string;
  tag: string;
  built: boolean;
}

export const runtimeImageName = (runtime: string) => `svc-${runtime}`;

/** A content tag over everything that goes into the image, so an unchanged tree is not rebuilt. */
function contentTag(dockerfile: string, baseId: string, bun: string, debs: string[], tree: TreeEntry[]): string {
  const hash = new Bun.CryptoHasher("sha256");
  hash.update(`${readFileSync(dockerfile, "utf8")}\0${baseId}\0`);
  for (const file of [bun, ...debs]) hash.update(`${basename(file)}\0`).update(readFileSync(file));
  for (const entry of tree) {
    hash.update(`${entry.target}\0`);
    if ("symlink" in entry) hash.update(`-> ${entry.symlink}\0`);
    else hash.update(readFileSync(entry.source));
  }
  return hash.digest("hex").slice(0, 16);
}

function stage(dir: string, bun: string, debs: string[], tree: TreeEntry[], dockerfile: string): void {
  mkdirSync(join(dir, "app"), { recursive: true });
  mkdirSync(join(dir, "debs"));
  copyFileSync(dockerfile, join(dir, "Dockerfile"));
  copyFileSync(bun, join(dir, "bun"));
  for (const deb of debs) copyFileSync(deb, join(dir, "debs", basename(deb)));
  for (const entry of tree) {
    const target = join(dir, "app", entry.target);
    mkdirSync(dirname(target), { recursive: true });
    if ("symlink" in entry) symlinkSync(entry.symlink, target);
    else copyFileSync(entry.source, target);
  }
}

/**
 * Builds `svc-<runtime>:<content tag>` FROM `baseTag`: Bun and the runtime's installed
 * dependencies are copied in; on the registry-free path the build runs with no network. Does
 * nothing when an image with that tag exists. Also tags it `:latest` (or `options.alsoTag`).
 */
export function buildRuntimeImage(root: string, runtime: string, baseTag: string, options: BuildOptions = {}): RuntimeImage {
  const path = options.path ?? "debootstrap";
  const dockerfile = join(root, "images", runtime, "Dockerfile");
  const bun = realpathSync(process.execPath);
  const debs = path === "debootstrap" ? debianPackages(RUNTIME_DEBS, join(root, "images", ".cache", "debs")) : [];
  const tree = runtimeTree(root, runtime);
  const baseId = docker(["image", "inspect", "--format", "{{.Id}}", baseTag]);
  const name = options.name ?? runtimeImageName(runtime);
  const tag = `${name}:${contentTag(dockerfile, baseId, bun, debs, tree)}`;
  const also = `${name}:${options.alsoTag ?? "latest"}`;
  if (imageExists(tag)) {
    docker(["tag", tag, also]);
    return { runtime, tag, built: false };
  }
  const dir = mkdtempSync(join(tmpdir(), `svc-image-${runtime}-`));
  try {
    stage(dir, bun, debs, tree, dockerfile);
    const args = [
      "build",
      // The registry-free build needs nothing from outside; the other one apt-installs from the base's mirror.
      "--network",
      path === "debootstrap" ? "none" : "host",
      "--build-arg",
      `BASE=${baseTag}`,
      "--build-arg",
      `PACKAGES=${RUNTIME_DEBS.join(" ")}`,
      "--label",
      `svc.content=${tag}`,
      "-t",
      tag,
      "-t",
      also,
      dir,
    ];
    if (options.showProgress) dockerShowingProgress(args);
    else docker(args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runtime, tag, built: true };
}
