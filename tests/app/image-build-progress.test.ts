import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SvcClient } from "@svc/client";
import { ensureDocker, eventually, registerTinyModels, runSvc, startSvc, TEXT_MODEL, type RunningSvc } from "@svc/testing";

/**
 * `svc run` whose runtime image is missing: the orchestrator builds it first, and the CLI shows
 * that build's progress (the choice of base, docker build's steps) while it waits. The image gets
 * a name of its own (SVC_RUNTIME_IMAGE_TEXT_GENERATION), so the images other tests use stay as they are.
 */
const IMAGE = "svc-test-build-progress-text-generation:latest";
let app: RunningSvc;
let client: SvcClient;

function docker(args: string[]): string {
  return Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
}
function removeTestImages() {
  const tags = docker(["image", "ls", "--format", "{{.Repository}}:{{.Tag}}", IMAGE.split(":")[0]]).split("\n").filter(Boolean);
  if (tags.length > 0) docker(["rmi", "-f", ...tags]);
}

beforeAll(async () => {
  ensureDocker();
  removeTestImages();
  app = await startSvc({ env: { SVC_RUNTIME_IMAGE_TEXT_GENERATION: IMAGE } });
  client = new SvcClient({ baseUrl: app.url });
  await registerTinyModels(client, app.home);
}, 120_000);

afterAll(async () => {
  for (const service of await client.services.list({ all: true })) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app.cleanup();
  removeTestImages();
  rmSync(app.home, { recursive: true, force: true });
});

test("svc run that has to build the runtime image shows the build's steps, then runs the service", async () => {
  const run = await runSvc(["run", "text-generation", TEXT_MODEL], { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) });
  expect(run.code).toBe(0);
  const lines = run.stderr.split("\n");
  const header = lines.indexOf(`Building the runtime image ${IMAGE}:`);
  expect(header).toBeGreaterThanOrEqual(0);
  const shown = lines.slice(header + 1);
  expect(shown.some((line) => line.includes("building the runtime images FROM"))).toBe(true);
  expect(shown.some((line) => /^ {2}Step 1\/\d+ : /.test(line))).toBe(true);
  expect(shown.some((line) => line.includes(`Successfully tagged ${IMAGE}`))).toBe(true);
  expect(run.stderr).toContain(`warning: The runtime image ${IMAGE} was missing, so it was built first.`);
  const id = run.stdout.trim();
  await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 60_000, "the service on the new image to be HEALTHY");
  expect((await client.images.builds())[0]).toMatchObject({ image: IMAGE, state: "completed" });
}, 300_000);
