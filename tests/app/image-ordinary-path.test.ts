import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRuntimeImage } from "@svc/images";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { ensureBaseImage, eventually, freePort, REPO_ROOT } from "@svc/testing";

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

test("a runtime image built on the ordinary path installs its libraries with the base's apt and serves", async () => {
  const base = ensureBaseImage();
  const image = buildRuntimeImage(root, "text-generation", base, { path: "pull", name: NAME });
  expect(image.tag).toStartWith(`${NAME}:`);
  // The library the staged .deb files bring on the other path came from the base's apt.
  expect(docker(["run", "--rm", "--entrypoint", "sh", image.tag, "-c", "ldconfig -p | grep -o 'libgomp.so.1 '"]).trim()).toBe("libgomp.so.1");

  const model = makeTinyModels(cacheDir).textGeneration;
  const port = await freePort();
  container = docker(["run", "-d", "--network", "host", "-v", `${cacheDir}:${cacheDir}:ro`, image.tag, "--model", model, "--host", "127.0.0.1", "--port", String(port)]);
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, "the runtime to answer /health");
  const models = (await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()) as { data: unknown[] };
  expect(models.data.length).toBe(1);
}, 300_000);
