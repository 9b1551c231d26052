import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { debianPackages } from "./debian-packages";
import { docker, imageExists } from "./docker-cli";
import { runtimeTree, type TreeEntry } from "./image-tree";

/** Shared libraries the prebuilt llama.cpp / whisper.cpp binaries load that minbase lacks. */
const RUNTIME_DEBS = ["libgomp1"];

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
 * Builds `svc-<runtime>:<content tag>` FROM the base image: Bun and the runtime's installed
 * dependencies are copied in and the build runs with no network. Does nothing when an image with
 * that tag exists. Also tags it `:latest`.
 */
export function buildRuntimeImage(root: string, runtime: string, baseTag: string): RuntimeImage {
  const dockerfile = join(root, "images", runtime, "Dockerfile");
  const bun = realpathSync(process.execPath);
  const debs = debianPackages(RUNTIME_DEBS, join(root, "images", ".cache", "debs"));
  const tree = runtimeTree(root, runtime);
  const baseId = docker(["image", "inspect", "--format", "{{.Id}}", baseTag]);
  const name = runtimeImageName(runtime);
  const tag = `${name}:${contentTag(dockerfile, baseId, bun, debs, tree)}`;
  if (imageExists(tag)) {
    docker(["tag", tag, `${name}:latest`]);
    return { runtime, tag, built: false };
  }
  const dir = mkdtempSync(join(tmpdir(), `svc-image-${runtime}-`));
  try {
    stage(dir, bun, debs, tree, dockerfile);
    docker(["build", "--network", "none", "--build-arg", `BASE=${baseTag}`, "--label", `svc.content=${tag}`, "-t", tag, "-t", `${name}:latest`, dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runtime, tag, built: true };
}
