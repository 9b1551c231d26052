/**
 * Which base the runtime images are built FROM. Two paths:
 *  - ordinary: a Dockerfile build FROM a standard base image (debian:bookworm-slim) the engine
 *    pulls, with the shared libraries apt-installed inside the build. Needs only a Docker Engine
 *    that can pull it: Fedora, Ubuntu without root, Docker Desktop.
 *  - registry-free: the base made with debootstrap from this machine's apt mirror
 *    (images/base/build.sh), the libraries' .deb files fetched by the host's apt, the build
 *    offline. Needs a Debian host, debootstrap (or root to install it) and apt-get.
 * By default (SVC_IMAGE_BUILD=auto) a base already on the engine is used, else the standard one is
 * pulled, else the registry-free path runs; each choice comes with a message saying why.
 */

export const STANDARD_BASE = "debian:bookworm-slim";
export const REGISTRY_FREE_BASE = "svc-base:bookworm";

export type BuildPath = "pull" | "debootstrap";
export const BUILD_MODES = ["auto", "pull", "debootstrap"] as const;
export type BuildMode = (typeof BUILD_MODES)[number];

export interface BaseChoice {
  path: BuildPath;
  /** The image to build FROM (for debootstrap, made by images/base/build.sh first). */
  base: string;
  /** Says which path was taken and why, for the person waiting on the build. */
  message: string;
}

/** What the choice asks of the machine; images/build.ts answers with the docker CLI and build.sh. */
export interface BaseProbe {
  present(tag: string): boolean;
  /** Pulls `tag`: undefined when it worked, else why not. */
  pull(tag: string): string | undefined;
  /** What the registry-free path lacks on this machine; undefined when it can run. */
  debootstrapMissing(): string | undefined;
}

export class BaseChoiceError extends Error {
  override name = "BaseChoiceError";
}

/** SVC_IMAGE_BUILD (auto, pull or debootstrap) and SVC_IMAGE_BASE (the standard base) from the environment. */
export function buildSettings(env: Record<string, string | undefined>): { mode: BuildMode; standardBase: string } {
  const mode = (env.SVC_IMAGE_BUILD || "auto").trim();
  if (!(BUILD_MODES as readonly string[]).includes(mode)) {
    throw new BaseChoiceError(`SVC_IMAGE_BUILD=${JSON.stringify(env.SVC_IMAGE_BUILD)} is not a build path: use ${BUILD_MODES.join(", ")}.`);
  }
  return { mode: mode as BuildMode, standardBase: (env.SVC_IMAGE_BASE || STANDARD_BASE).trim() };
}

export function chooseBase(probe: BaseProbe, settings: { mode: BuildMode; standardBase: string }): BaseChoice {
  const { mode, standardBase } = settings;
  const ordinary = (how: string): BaseChoice => ({ path: "pull", base: standardBase, message: `Building the runtime images FROM ${standardBase} (${how}).` });
  const registryFree = (why: string): BaseChoice => ({
    path: "debootstrap",
    base: REGISTRY_FREE_BASE,
    message: `${why}: building the runtime images FROM ${REGISTRY_FREE_BASE}, the registry-free base made with debootstrap from this machine's apt mirror.`,
  });

  if (mode !== "debootstrap" && probe.present(standardBase)) return ordinary("already on this Docker Engine");
  if (mode === "auto" && probe.present(REGISTRY_FREE_BASE)) return registryFree(`${REGISTRY_FREE_BASE} is already on this Docker Engine`);
  if (mode === "debootstrap") {
    const missing = probe.debootstrapMissing();
    if (missing) throw new BaseChoiceError(`SVC_IMAGE_BUILD=debootstrap, but the registry-free path needs ${missing}.`);
    return registryFree("SVC_IMAGE_BUILD=debootstrap");
  }
  const pullError = probe.pull(standardBase);
  if (pullError === undefined) return ordinary("pulled by the Docker Engine");
  if (mode === "pull") {
    throw new BaseChoiceError(`SVC_IMAGE_BUILD=pull, but the Docker Engine cannot pull ${standardBase}: ${pullError}. Let it reach a registry, or docker load the image.`);
  }
  const missing = probe.debootstrapMissing();
  if (missing === undefined) return registryFree(`The Docker Engine cannot pull ${standardBase} (${pullError})`);
  throw new BaseChoiceError(
    `Cannot build the runtime images. The ordinary path needs the Docker Engine to pull ${standardBase}, and it cannot (${pullError}); ` +
      `the registry-free path needs ${missing}. Let the engine reach a registry (or docker load ${standardBase}), or build on a Debian host with debootstrap.`,
  );
}
