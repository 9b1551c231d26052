import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { engineBun, NpmPackages } from "@svc/images";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { ensureBaseImage, eventually, freePort, REPO_ROOT, retryWhilePortTaken } from "@svc/testing";

/**
 * The ordinary image path, for real: the same Dockerfile built FROM a Debian image without the
 * staged .deb files, so the base's own apt installs them during the build, as it does FROM
 * debian:bookworm-slim on a machine whose engine can pull. This machine has no registry, so the
 * local bookworm base stands in for the pulled one (its apt uses this machine's mirror).
 */
const root = REPO_ROOT.replace(/\/$/, "");
const NAME = "svc-test-ordinary-path-text-generation";
const cacheDir = mkdtempSync(join(tmpdir(), "svc-ordinary-path-"));
let container = "";

/** The docker CLI; throws with its stderr unless `quiet`. */
function docker(args: string[], options: { quiet?: boolean } = {}): string {
  const result = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0 && !options.quiet) throw new Error(`docker ${args[0]} failed:\n${result.stderr}`);
  return result.stdout.toString().trim();
}

afterAll(() => {
  if (container) docker(["rm", "-f", container], { quiet: true });
  const tags = docker(["image", "ls", "--format", "{{.Repository}}:{{.Tag}}", NAME], { quiet: true }).split("\n").filter(Boolean);
  if (tags.length > 0) docker(["rmi", ...tags], { quiet: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

class PortTakenError extends Error {}

/** Whether the container has stopped (the runtime exited). */
const stopped = (id: string) => docker(["inspect", "--format", "{{.State.Running}}", id], { quiet: true }) !== "true";

/**
 * The runtime on the host network, told its port beforehand: a port taken between the pick and the
 * bind (Bun's EADDRINUSE) is picked again. Resolves with the port once /health answers.
 */
async function startOnHostNetwork(tag: string, args: string[]): Promise<number> {
  return retryWhilePortTaken(() => freePort(), async (port) => {
    container = docker(["run", "-d", "--network", "host", "-v", `${cacheDir}:${cacheDir}:ro`, tag, ...args, "--host", "127.0.0.1", "--port", String(port)]);
    await eventually(async () => stopped(container) || (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, "the runtime to answer /health");
    if (!stopped(container)) return port;
    const logs = Bun.spawnSync(["docker", "logs", container], { stdout: "pipe", stderr: "pipe" });
    const said = `${logs.stdout}${logs.stderr}`;
    docker(["rm", "-f", container], { quiet: true });
    if (/EADDRINUSE|Is port \d+ in use/.test(said)) throw new PortTakenError(said);
    throw new Error(`the runtime exited:\n${said}`);
  }, (error) => error instanceof PortTakenError);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

test("a runtime image built on the ordinary path carries Linux Bun for the engine from npm, installs its libraries with the base's apt, and serves", async () => {
  const base = ensureBaseImage();
  // images/build.ts on the ordinary path (the local base named as the standard one, so nothing is pulled).
  const build = Bun.spawnSync([process.execPath, "images/build.ts", "text-generation", "--image", `${NAME}:ordinary`], {
    cwd: root,
    env: { ...process.env, SVC_IMAGE_BUILD: "pull", SVC_IMAGE_BASE: base },
    stdout: "pipe",
    stderr: "pipe",
  });
  const said = build.stderr.toString();
  expect(build.exitCode).toBe(0);
  expect(said).toContain(`Building the runtime images FROM ${base} (already on this Docker Engine).`);
  // Its Bun is Linux Bun for the engine's architecture from the npm registry, not this machine's executable.
  const bun = await engineBun(root, new NpmPackages(join(root, "images", ".cache", "npm")));
  expect(bun.arch).toBe(process.arch === "arm64" ? "arm64" : "x64");
  expect(said).toContain(`Bun ${bun.version} for linux/${bun.arch} (the Docker Engine's architecture) from the npm registry (${bun.bunPackage}).`);
  const tag = build.stdout.toString().trim().split("\n").pop()!;
  expect(tag).toStartWith(`${NAME}:`);
  const image = { tag };
  const inImage = Bun.spawnSync(["docker", "run", "--rm", "--entrypoint", "cat", image.tag, "/usr/local/bin/bun"], { stdout: "pipe" }).stdout;
  expect(sha256(inImage)).toBe(sha256(readFileSync(bun.path)));
  expect(docker(["run", "--rm", "--entrypoint", "/usr/local/bin/bun", image.tag, "--version"])).toBe(bun.version);
  // The library the staged .deb files bring on the other path came from the base's apt.
  expect(docker(["run", "--rm", "--entrypoint", "sh", image.tag, "-c", "ldconfig -p | grep -o 'libgomp.so.1 '"]).trim()).toBe("libgomp.so.1");

  const model = makeTinyModels(cacheDir).textGeneration;
  const port = await startOnHostNetwork(image.tag, ["--model", model]);
  const models = (await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()) as { data: unknown[] };
  expect(models.data.length).toBe(1);
}, 300_000);
