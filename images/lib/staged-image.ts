import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { docker, dockerShowingProgress, imageExists } from "./docker-cli";
import type { TreeEntry } from "./image-tree";

export interface StagedImage {
  /** The Dockerfile; its context holds `bun`, `debs/` and `app/`. */
  dockerfile: string;
  /** Image name; tagged `<name>:<content tag>` and `<name>:<alsoTag>`. */
  name: string;
  alsoTag?: string;
  baseTag: string;
  /** The Bun binary copied in. */
  bun: string;
  /** .deb files staged for the build to install offline. */
  debs: string[];
  /** What goes into /app. */
  tree: TreeEntry[];
  /** docker build's --network: `none` when the build needs nothing from outside. */
  network: "none" | "host";
  buildArgs?: Record<string, string>;
  showProgress?: boolean;
}

/** A content tag over everything that goes into the image, so an unchanged tree is not rebuilt. */
function contentTag(image: StagedImage, baseId: string): string {
  const hash = new Bun.CryptoHasher("sha256");
  hash.update(`${readFileSync(image.dockerfile, "utf8")}\0${baseId}\0`);
  for (const file of [image.bun, ...image.debs]) hash.update(`${basename(file)}\0`).update(readFileSync(file));
  for (const entry of image.tree) {
    hash.update(`${entry.target}\0`);
    if ("symlink" in entry) hash.update(`-> ${entry.symlink}\0`);
    else hash.update(readFileSync(entry.source));
  }
  return hash.digest("hex").slice(0, 16);
}

function stage(dir: string, image: StagedImage): void {
  mkdirSync(join(dir, "app"), { recursive: true });
  mkdirSync(join(dir, "debs"));
  copyFileSync(image.dockerfile, join(dir, "Dockerfile"));
  copyFileSync(image.bun, join(dir, "bun"));
  for (const deb of image.debs) copyFileSync(deb, join(dir, "debs", basename(deb)));
  for (const entry of image.tree) {
    const target = join(dir, "app", entry.target);
    mkdirSync(dirname(target), { recursive: true });
    if ("symlink" in entry) symlinkSync(entry.symlink, target);
    else copyFileSync(entry.source, target);
  }
}

/**
 * Builds an image from a staged context (nothing is downloaded when `network` is none), tagged
 * by its content; when an image with that tag exists it is only tagged again. Returns the tag.
 */
export function buildStagedImage(image: StagedImage): { tag: string; built: boolean } {
  const baseId = docker(["image", "inspect", "--format", "{{.Id}}", image.baseTag]);
  const tag = `${image.name}:${contentTag(image, baseId)}`;
  const also = `${image.name}:${image.alsoTag ?? "latest"}`;
  if (imageExists(tag)) {
    docker(["tag", tag, also]);
    return { tag, built: false };
  }
  const dir = mkdtempSync(join(tmpdir(), `svc-image-${basename(image.name)}-`));
  try {
    stage(dir, image);
    const buildArgs = Object.entries({ BASE: image.baseTag, ...image.buildArgs }).flatMap(([key, value]) => ["--build-arg", `${key}=${value}`]);
    const args = ["build", "--network", image.network, ...buildArgs, "--label", `svc.content=${tag}`, "-t", tag, "-t", also, dir];
    if (image.showProgress) dockerShowingProgress(args);
    else docker(args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { tag, built: true };
}
