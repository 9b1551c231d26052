/**
 * The README's first-service steps, run as they are written (the shell block after the
 * `first-service` marker), with SVC_HOME_DIR set to a folder that is not ~/.svc and `svc` reached
 * through a link in a folder on the PATH: they must work as the README says, up to a HEALTHY service.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { buildRuntimeImages, ensureDocker, eventually, REPO_ROOT, runDocBlock, startSvc, svcOnPath, tempHome, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
let client: SvcClient;
let bin: string;

/** The shell block that follows the marker in README.md. */
function firstServiceBlock(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const after = readme.slice(readme.indexOf("<!-- first-service"));
  const block = /```sh\n([\s\S]*?)```/.exec(after);
  if (!block) throw new Error("README.md has no first-service block");
  return block[1];
}

beforeAll(async () => {
  ensureDocker();
  const runtimes = buildRuntimeImages();
  // Not ~/.svc: the steps must follow SVC_HOME_DIR.
  const home = join(tempHome("svc-readme-"), "my svc data");
  mkdirSync(home, { recursive: true });
  app = await startSvc({ home, env: runtimes.env });
  client = new SvcClient({ baseUrl: app.url });
  bin = svcOnPath();
}, 600_000);

afterAll(async () => {
  if (client) for (const service of await client.services.list({ all: true }).catch(() => [])) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
});

test("the README's first service: init, tiny models, refresh, run, ls, in SVC_HOME_DIR, with svc on the PATH", async () => {
  const script = firstServiceBlock();
  expect(script).not.toContain("~/.svc");
  const { stdout, stderr, code } = await runDocBlock(script, app, bin);
  expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
  const id = /^[0-9a-f-]{36}$/m.exec(stdout)?.[0];
  expect(id).toBeDefined();
  const profile = await client.profiles.get("default");
  expect(profile).toMatchObject({ schema: "local", home_dir: app.home });
  await eventually(async () => (await client.services.get(id!)).status === "HEALTHY", 90_000, "the README's service to be HEALTHY");
  // It answers (with random text: the tiny model's weights are random).
  const answer = await fetch(`${app.url}/proxy/${id}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "svc-tiny/tiny-llama-gguf", messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 4 }),
  });
  expect(answer.status).toBe(200);
}, 240_000);
