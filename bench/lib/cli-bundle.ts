import { REPO_ROOT } from "@svc/testing";

/**
 * Builds the CLI's bundle as `npm install` does (cli/bundle.ts), so a figure times the CLI as
 * installed: a bundle older than the sources (a checkout updated without `npm install`) would make
 * ./svc run the sources, which is correct but not what is measured.
 */
export function ensureCliBundle() {
  const result = Bun.spawnSync([process.execPath, "cli/bundle.ts"], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0 || result.stderr.length > 0) throw new Error(`bun cli/bundle.ts: ${result.stderr}`);
}
