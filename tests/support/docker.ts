/**
 * Docker for integration tests: makes sure an engine answers (tests/setup/docker-engine.sh) and
 * the base image exists (images/base/build.sh), and sets the environment testcontainers needs
 * on this kind of machine (no registry, host networking, no Ryuk).
 */
import { prebuiltImage } from "./prebuilt-images";

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

/**
 * Builds `tag` from a folder with a Dockerfile (plus extra files copied into the context), unless
 * an image built from the same content exists. Uses the docker CLI: this is test set-up only.
 */
export function buildImage(tag: string, dir: string, extraFiles: Record<string, string> = {}): string {
  ensureBaseImage();
  const { mkdtempSync, cpSync, readdirSync, readFileSync } = require("node:fs") as typeof import("node:fs");
  const { join } = require("node:path") as typeof import("node:path");
  const { tmpdir } = require("node:os") as typeof import("node:os");
  const hasher = new Bun.CryptoHasher("sha256");
  for (const file of readdirSync(dir).sort()) hasher.update(readFileSync(join(dir, file)));
  for (const [name, source] of Object.entries(extraFiles).sort()) hasher.update(name).update(readFileSync(source));
  const content = hasher.digest("hex").slice(0, 16);
  const inspect = Bun.spawnSync(["docker", "image", "inspect", "--format", '{{ index .Config.Labels "svc.content" }}', tag]);
  if (inspect.exitCode === 0 && inspect.stdout.toString().trim() === content) return tag;
  const context = mkdtempSync(join(tmpdir(), "svc-image-"));
  cpSync(dir, context, { recursive: true });
  for (const [name, source] of Object.entries(extraFiles)) cpSync(source, join(context, name));
  const build = Bun.spawnSync(["docker", "build", "--network", "host", "--label", `svc.content=${content}`, "-t", tag, context], { stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`docker build of ${tag} failed:\n${build.stderr.toString()}`);
  return tag;
}

/** The Bun binary of this checkout, to copy into test images. */
export const BUN_BINARY = require.resolve("bun/bin/bun.exe");

/** Builds (once per content) the fake runtime image of fake-runtime/: a tiny server that answers /health. */
export function fakeRuntimeImage(): string {
  const prebuilt = prebuiltImage("fake-runtime");
  if (prebuilt) ensureDocker();
  return prebuilt ?? buildImage("svc-test-fake-runtime:latest", new URL("fake-runtime", import.meta.url).pathname, { bun: BUN_BINARY });
}
