/** Runs the docker CLI with an argument array (never through a shell); throws with its stderr. */
export function docker(args: string[], options: { quiet?: boolean } = {}): string {
  const result = Bun.spawnSync(["docker", ...args], {
    stdout: "pipe",
    stderr: "pipe",
    // The Engine here has no BuildKit frontend available offline: use the classic builder.
    env: { ...process.env, DOCKER_BUILDKIT: "0" },
  });
  if (result.exitCode !== 0) {
    if (options.quiet) return "";
    throw new Error(`docker ${args.slice(0, 2).join(" ")} failed (exit ${result.exitCode}):\n${result.stderr.toString().trim()}\n${result.stdout.toString().slice(-2000)}`);
  }
  return result.stdout.toString().trim();
}

export function imageExists(tag: string): boolean {
  return docker(["image", "inspect", "--format", "{{.Id}}", tag], { quiet: true }) !== "";
}
