/**
 * Docker for integration tests: makes sure an engine answers (tests/setup/docker-engine.sh) and
 * the base image exists (images/base/build.sh), and sets the environment testcontainers needs
 * on this kind of machine (no registry, host networking, no Ryuk).
 */
const root = new URL("../..", import.meta.url).pathname;

function run(script: string): string {
  const result = Bun.spawnSync(["bash", `${root}${script}`], { stdout: "pipe", stderr: "pipe", env: process.env });
  if (result.exitCode !== 0) {
    throw new Error(`${script} failed (exit ${result.exitCode}):\n${result.stderr.toString()}`);
  }
  return result.stdout.toString().trim().split("\n").pop() ?? "";
}

let dockerHost: string | undefined;

/** Starts (or finds) the engine and exports DOCKER_HOST and the testcontainers settings. Returns DOCKER_HOST. */
export function ensureDocker(): string {
  if (dockerHost) return dockerHost;
  dockerHost = run("tests/setup/docker-engine.sh");
  Object.assign(process.env, {
    DOCKER_HOST: dockerHost,
    TESTCONTAINERS_RYUK_DISABLED: "true",
    TESTCONTAINERS_HOST_OVERRIDE: "127.0.0.1",
  });
  return dockerHost;
}

let baseImage: string | undefined;

/** Builds the debootstrap base image once (content-tagged, so usually instant). Returns its tag. */
export function ensureBaseImage(): string {
  ensureDocker();
  return (baseImage ??= run("images/base/build.sh"));
}

/** The Engine API socket path, for code that calls the API with `fetch(url, { unix })`. */
export function dockerSocket(): string {
  return ensureDocker().replace(/^unix:\/\//, "");
}
