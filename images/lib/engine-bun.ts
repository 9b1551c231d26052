import { join } from "node:path";
import { docker } from "./docker-cli";
import { NpmPackages } from "./npm-packages";
import { bundleArch, linuxBun, type BundleArch } from "./runtime-bundle";

/** The Docker Engine's CPU architecture, which its images run on (not necessarily this machine's). */
export function engineArch(): BundleArch {
  const [os, machine] = docker(["version", "--format", "{{.Server.Os}} {{.Server.Arch}}"]).split(" ");
  const arch = bundleArch(machine ?? "");
  if (os !== "linux" || !arch) throw new Error(`the Docker Engine runs ${os}/${machine}: svc's runtime images are Linux x64 or arm64 images.`);
  return arch;
}

/**
 * The Bun an image built on the ordinary path carries: Linux Bun for the engine's architecture
 * from the npm registry (the version this checkout runs, cached in images/.cache/npm), never this
 * machine's own executable, which on macOS (Docker Desktop) is not a Linux program at all.
 */
export async function engineBun(root: string, packages = new NpmPackages(join(root, "images", ".cache", "npm"))) {
  const arch = engineArch();
  const bun = await linuxBun(root, arch, packages);
  return { ...bun, arch, message: `Bun ${bun.version} for linux/${arch} (the Docker Engine's architecture) from the npm registry (${bun.bunPackage}).` };
}
