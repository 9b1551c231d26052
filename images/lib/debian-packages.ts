import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Fetches the .deb files of `packages` with the machine's own apt (so from its configured mirror)
 * into `cacheDir`, once; the image build then installs them with dpkg and needs no network.
 */
export function debianPackages(packages: string[], cacheDir: string): string[] {
  mkdirSync(cacheDir, { recursive: true });
  const present = () => readdirSync(cacheDir).filter((file) => file.endsWith(".deb"));
  const missing = packages.filter((pkg) => !present().some((file) => file.startsWith(`${pkg}_`)));
  if (missing.length > 0) {
    const download = Bun.spawnSync(["apt-get", "download", ...missing], { cwd: cacheDir, stdout: "pipe", stderr: "pipe" });
    if (download.exitCode !== 0) {
      throw new Error(`apt-get download ${missing.join(" ")} failed (the runtime images need them):\n${download.stderr.toString()}`);
    }
  }
  return packages.map((pkg) => {
    const file = present().find((name) => name.startsWith(`${pkg}_`));
    if (!file || !existsSync(join(cacheDir, file))) throw new Error(`no .deb for ${pkg} in ${cacheDir}`);
    return join(cacheDir, file);
  });
}
