/**
 * A service's API key stays secret and its container holds no power it does not need, end to end
 * on Docker with the real text-generation runtime: the key is in no command line (`ps`), not in
 * `docker inspect`, not in any preview (CLI, API, UI), and kept once in the database; the
 * container runs as a non-root user with every capability dropped, and the runtime still serves.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import OpenAI from "openai";
import type { SvcClient } from "@svc/client";
import { dockerSocket, runSvc, startAppWithTinyModels, TEXT_MODEL, type TinyApp } from "@svc/testing";

const KEY = "sk-secret-0f3c9a7e5d";

let tiny: TinyApp;
let app: TinyApp["app"];
let client: SvcClient;
let env: Record<string, string>;

const docker = async <T>(path: string): Promise<T> => (await fetch(`http://docker/v1.41${path}`, { unix: dockerSocket() } as RequestInit)).json() as Promise<T>;

beforeAll(async () => {
  tiny = await startAppWithTinyModels();
  ({ app, client, env } = tiny);
}, 600_000);

afterAll(async () => {
  await tiny?.cleanup();
});

test("no preview shows the key: svc run --dry-run, the API's dry run, the UI's launch preview", async () => {
  const dry = await runSvc(["run", "text-generation", TEXT_MODEL, "--api-key", KEY, "--dry-run"], env);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain("--api-key-file /run/secrets/svc-api-key");
  expect(dry.stdout + dry.stderr).not.toContain(KEY);
  const api = await client.services.run({ task: "text-generation", model: TEXT_MODEL, apiKey: KEY, dryRun: true });
  expect(api.script).not.toContain(KEY);
  const preview = await fetch(`${app.url}/services/new`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: new URLSearchParams({ action: "preview", task: "text-generation", model: TEXT_MODEL, apiKey: KEY }),
  });
  const page = await preview.text();
  expect(preview.status).toBe(200);
  expect(page).toContain("--api-key-file /run/secrets/svc-api-key");
  expect(page).not.toContain(KEY);
});

test("a running service's key is in no command line, not in docker inspect, and kept once in the database; its container is confined", async () => {
  const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--api-key", KEY, "--name", "secret"], env);
  expect(run.code).toBe(0);
  const id = run.stdout.trim();
  await tiny.reaches(id, "HEALTHY", 90_000);
  const service = await client.services.get(id);

  // The runtime read its key from the mounted file: the right key passes, none is refused.
  const chat = new OpenAI({ baseURL: `${app.url}/proxy/${id}/v1`, apiKey: KEY });
  const answer = await chat.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 4, temperature: 0 });
  expect(answer.object).toBe("chat.completion");
  expect((await fetch(`${app.url}/proxy/${id}/v1/models`)).status).toBe(401);

  const commandLines = Bun.spawnSync(["ps", "-eo", "args"]).stdout.toString();
  expect(commandLines).toContain("runtimes/text-generation/src/main.ts");
  expect(commandLines).not.toContain(KEY);

  const inspected = await docker<{ Args: string[]; Config: { User: string; Env: string[]; Cmd: string[] }; HostConfig: Record<string, unknown> }>(
    `/containers/${service.handle}/json`,
  );
  expect(JSON.stringify(inspected)).not.toContain(KEY);
  expect(inspected.Args).toContain("--api-key-file");
  expect(inspected.Config.User).toMatch(/^[1-9][0-9]*:[0-9]+$/);
  expect(inspected.HostConfig).toMatchObject({ CapDrop: ["ALL"], SecurityOpt: ["no-new-privileges"], ReadonlyRootfs: true });
  expect(inspected.HostConfig.PidsLimit).toBeGreaterThan(0);

  const db = new Database(join(app.home, "data", "orchestrator-svc", "orchestrator.db"), { readonly: true });
  const row = db.query("select api_key, spec from services where id = ?").get(id) as { api_key: string; spec: string };
  db.close();
  expect(row.api_key).toBe(KEY);
  expect(row.spec).not.toContain(KEY);
});

test("/api/info says which Docker network services use, as the Engine has it", async () => {
  const bridge = await fetch("http://docker/v1.41/networks/bridge", { unix: dockerSocket() } as RequestInit);
  const info = await client.info();
  expect(info.dockerNetwork).toBe(bridge.ok ? "publish" : "host");
  const cli = await runSvc(["info"], env);
  expect(cli.stdout).toContain(bridge.ok ? "docker:      own network, ports published on 127.0.0.1" : "docker:      host networking");
});
