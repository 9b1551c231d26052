// The Engine here has no BuildKit frontend available offline: use the classic builder.
const DOCKER_ENV = () => ({ ...process.env, DOCKER_BUILDKIT: "0" });

/** Runs the docker CLI with an argument array (never through a shell); throws with its stderr. */
export function docker(args: string[], options: { quiet?: boolean } = {}): string {
  const result = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe", env: DOCKER_ENV() });
  if (result.exitCode !== 0) {
    if (options.quiet) return "";
    throw new Error(`docker ${args.slice(0, 2).join(" ")} failed (exit ${result.exitCode}):\n${result.stderr.toString().trim()}\n${result.stdout.toString().slice(-2000)}`);
  }
  return result.stdout.toString().trim();
}

/**
 * Runs the docker CLI with its output going to this process's stderr as it comes (a build's
 * `Step N/M` lines), so whoever runs images/build.ts sees progress; throws on failure.
 */
export function dockerShowingProgress(args: string[]): void {
  const result = Bun.spawnSync(["docker", ...args], { stdout: 2, stderr: 2, env: DOCKER_ENV() } as unknown as Parameters<typeof Bun.spawnSync>[1]);
  if (result.exitCode !== 0) throw new Error(`docker ${args.slice(0, 2).join(" ")} failed (exit ${result.exitCode}); its output is above.`);
}

export function imageExists(tag: string): boolean {
  return docker(["image", "inspect", "--format", "{{.Id}}", tag], { quiet: true }) !== "";
}

/** Pulls an image; returns undefined when it worked, else the engine's reason (e.g. no registry reachable). */
export function pullImage(tag: string): string | undefined {
  const result = Bun.spawnSync(["docker", "pull", "--quiet", tag], { stdout: "pipe", stderr: "pipe", env: DOCKER_ENV() });
  if (result.exitCode === 0) return undefined;
  return result.stderr.toString().trim().split("\n").pop() || `docker pull exited with ${result.exitCode}`;
}
