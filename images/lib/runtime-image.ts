import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { BuildPath } from "./base-choice";
import { debianPackages } from "./debian-packages";
import { runtimeTree } from "./image-tree";
import { buildStagedImage } from "./staged-image";

/** Shared libraries the prebuilt llama.cpp / whisper.cpp binaries load that the Debian bases lack. */
const RUNTIME_DEBS = ["libgomp1"];

export interface RuntimeImage {
  runtime: string;
  tag: string;
  built: boolean;
}

export interface BuildOptions {
  /** `debootstrap` (default): .deb files staged from the host's apt, no network. `pull`: the base's own apt installs them. */
  path?: BuildPath;
  /** Stream docker build's output (its Step lines) to stderr. */
  showProgress?: boolean;
  /** Image name; default svc-<runtime>. */
  name?: string;
  /** The tag given besides the content tag; default latest. */
  alsoTag?: string;
  /** The Bun executable copied in; default this process's (right on the registry-free path, whose host is the engine's Debian). */
  bun?: string;
}

export const runtimeImageName = (runtime: string) => `svc-${runtime}`;

/**
 * Builds `svc-<runtime>:<content tag>` FROM `baseTag`: Bun and the runtime's installed
 * dependencies are copied in; on the registry-free path the build runs with no network. Does
 * nothing when an image with that tag exists. Also tags it `:latest` (or `options.alsoTag`).
 */
export function buildRuntimeImage(root: string, runtime: string, baseTag: string, options: BuildOptions = {}): RuntimeImage {
  const registryFree = (options.path ?? "debootstrap") === "debootstrap";
  const { tag, built } = buildStagedImage({
    dockerfile: join(root, "images", runtime, "Dockerfile"),
    name: options.name ?? runtimeImageName(runtime),
    alsoTag: options.alsoTag,
    baseTag,
    bun: realpathSync(options.bun ?? process.execPath),
    debs: registryFree ? debianPackages(RUNTIME_DEBS, join(root, "images", ".cache", "debs")) : [],
    tree: runtimeTree(root, runtime),
    // The registry-free build needs nothing from outside; the other one apt-installs from the base's mirror.
    network: registryFree ? "none" : "host",
    buildArgs: { PACKAGES: RUNTIME_DEBS.join(" ") },
    showProgress: options.showProgress,
  });
  return { runtime, tag, built };
}
