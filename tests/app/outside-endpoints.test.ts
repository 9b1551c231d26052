/**
 * Outside endpoints end to end: a second svc text-generation runtime, started directly with its
 * own API key, plays a department's OpenAI-compatible server. `svc endpoint add --api-key-file`
 * registers it; a person's svc key chats with its model through the app's /v1, usage is recorded
 * for that key, /v1/models lists it; the outside key shows in no API answer, in none of the app's
 * output or files (besides its own 0600 key file) and in no command line of the app's processes.
 * A wrong key is UNHEALTHY with its reason, an unreachable server a quick 503, rm takes the model away.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutsideEndpoint, UsageReport } from "@svc/contracts";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { freePort, runSvc, startSvc, type RunningSvc } from "@svc/testing";

const TOKEN = "outside-endpoints-test-token-0123456789";
const OUTSIDE_KEY = "outside-server-key-Zq93kLm27xPw";
let app: RunningSvc;
let outside: RuntimeProcess;
let work: string;
let modelPath: string;
let env: Record<string, string>;

const svc = (args: string[]) => runSvc(args, env);
const v1 = (path: string, key: string, body?: unknown) =>
  fetch(`${app.url}/v1${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const api = (path: string) => fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });

async function endpoints(): Promise<OutsideEndpoint[]> {
  const listed = await svc(["endpoint", "ls", "--json"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).not.toContain(OUTSIDE_KEY);
  return JSON.parse(listed.stdout);
}

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** The command lines of `pid` and every process below it. */
async function commandLines(pid: number): Promise<string[]> {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,ppid=,args="]).stdout.toString();
  const rows = ps.split("\n").map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)).filter((m): m is RegExpMatchArray => m !== null);
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [, child, parent] of rows) if (tree.has(Number(parent)) && !tree.has(Number(child))) grew = tree.add(Number(child)) !== undefined;
  }
  return rows.filter(([, child]) => tree.has(Number(child))).map(([, , args]) => args);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-outside-"));
  modelPath = makeTinyModels(join(work, "cache")).textGeneration;
  outside = await startRuntime("text-generation", ["--model", modelPath, "--api-key", OUTSIDE_KEY, "--max-input-length", "64", "--max-total-tokens", "128"]);
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: TOKEN };
  writeFileSync(join(work, "outside.key"), `${OUTSIDE_KEY}\n`, { mode: 0o600 });
  writeFileSync(join(work, "wrong.key"), "not-the-outside-key\n", { mode: 0o600 });
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
  await outside?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("an outside OpenAI-compatible server behind svc's /v1", () => {
  test("add with --api-key-file reads its models; a person's svc key chats with it; usage is recorded for that key", async () => {
    const added = await svc(["endpoint", "add", "dept", `${outside.url}/v1`, "--api-key-file", join(work, "outside.key")]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("HEALTHY");
    expect(added.stdout).not.toContain(OUTSIDE_KEY);
    expect(await endpoints()).toEqual([expect.objectContaining({ name: "dept", url: outside.url, models: [modelPath], hasKey: true, status: "HEALTHY", reason: null })]);

    const page = await api("/keys");
    expect(page.status).toBe(200);
    const section = (await page.text()).split('id="outside-endpoints"')[1] ?? "";
    expect(section).toContain("dept");
    expect(section).toContain('class="badge HEALTHY"');
    expect(section).not.toContain(OUTSIDE_KEY);

    const created = await svc(["key", "create", "--name", "alice"]);
    expect(created.code).toBe(0);
    const aliceKey = created.stdout.split("\n")[0].trim();
    const answer = await v1("/chat/completions", aliceKey, { model: modelPath, messages: [{ role: "user", content: "hello" }], max_tokens: 8, temperature: 0 });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-service")).toBe("endpoint:dept");
    const chat = (await answer.json()) as { model: string; choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number; completion_tokens: number } };
    expect(chat.model).toBe(modelPath);
    expect(chat.choices[0].message.content.length).toBeGreaterThan(0);

    const usage = await svc(["usage", "--json", "--by", "key", "--since", "1h"]);
    expect(usage.code).toBe(0);
    const alice = (JSON.parse(usage.stdout) as UsageReport).groups.find((group) => group.group === "alice");
    expect(alice).toMatchObject({ requests: 1, errors: 0, promptTokens: chat.usage.prompt_tokens, completionTokens: chat.usage.completion_tokens });
  }, 60_000);

  test("/v1/models lists the model, owned by the endpoint, HEALTHY", async () => {
    const response = await v1("/models", TOKEN);
    const text = await response.text();
    expect(text).not.toContain(OUTSIDE_KEY);
    const list = JSON.parse(text) as { data: Array<{ id: string; owned_by: string; status: string }> };
    expect(list.data).toContainEqual(expect.objectContaining({ id: modelPath, owned_by: "dept", status: "HEALTHY" }));
  });

  test("bad input: an unreadable or empty key file, a URL with credentials, a name taken, each a clear non-zero exit", async () => {
    writeFileSync(join(work, "empty.key"), "\n");
    const cases: Array<[string[], string]> = [
      [["endpoint", "add", "x", outside.url, "--api-key-file", join(work, "missing.key")], "cannot read it"],
      [["endpoint", "add", "x", outside.url, "--api-key-file", join(work, "empty.key")], "is empty"],
      [["endpoint", "add", "x", `http://user:secret@127.0.0.1:${new URL(outside.url).port}`, "--models", "m/x"], "credentials"],
      [["endpoint", "add", "dept", outside.url, "--models", "m/x"], "exists"],
      [["endpoint", "rm", "nobody"], "No outside endpoint"],
    ];
    for (const body of [{ name: "bad name", url: outside.url, apiKey: OUTSIDE_KEY }, { name: "ok", url: "ftp://127.0.0.1/", apiKey: OUTSIDE_KEY }, { name: "ok", url: outside.url, apiKey: OUTSIDE_KEY, extra: 1 }]) {
      const response = await fetch(`${app.url}/api/endpoints`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain(OUTSIDE_KEY);
    }
    for (const [args, words] of cases) {
      const result = await svc(args);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(words);
      expect(result.stderr).not.toContain("    at ");
    }
  }, 30_000);

  test("a wrong key: add refuses to guess the models; with --models the endpoint is UNHEALTHY with the reason", async () => {
    const refused = await svc(["endpoint", "add", "wrong", outside.url, "--api-key-file", join(work, "wrong.key")]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("401");
    const added = await svc(["endpoint", "add", "wrong", outside.url, "--api-key-file", join(work, "wrong.key"), "--models", "dept/other"]);
    expect(added.code).toBe(0);
    const wrong = (await endpoints()).find((endpoint) => endpoint.name === "wrong")!;
    expect(wrong.status).toBe("UNHEALTHY");
    expect(wrong.reason).toContain("401");
  }, 30_000);

  test("an unreachable server: its model is refused with 503 in OpenAI's error shape within seconds", async () => {
    const added = await svc(["endpoint", "add", "gone", `http://127.0.0.1:${await freePort()}/v1`, "--models", "gone/model"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("UNHEALTHY");
    const started = Date.now();
    const refused = await v1("/chat/completions", TOKEN, { model: "gone/model", messages: [{ role: "user", content: "hi" }] });
    expect([502, 503]).toContain(refused.status);
    expect(Date.now() - started).toBeLessThan(5000);
    const body = (await refused.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe("endpoint_unhealthy");
    expect(body.error.message).toContain("not reachable");
  }, 30_000);

  test("the outside key appears in no API answer, none of the app's output or files but its key file, and no command line", async () => {
    for (const path of ["/api/endpoints", "/api/keys", "/api/usage?by=service", "/v1/models", "/keys", "/usage"]) {
      const response = await api(path);
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain(OUTSIDE_KEY);
    }
    expect(app.output()).not.toContain(OUTSIDE_KEY);
    const holding = filesUnder(app.home).filter((file) => readFileSync(file).includes(OUTSIDE_KEY));
    expect(holding.map((file) => file.slice(app.home.length))).toEqual([expect.stringMatching(/\/endpoint-keys\/dept\.key$/)]);
    expect(statSync(holding[0]).mode & 0o777).toBe(0o600);
    const lines = await commandLines(app.proc.pid);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.filter((line) => line.includes(OUTSIDE_KEY))).toEqual([]);
  });

  test("rm takes the endpoint's models out of /v1", async () => {
    const removed = await svc(["endpoint", "rm", "dept"]);
    expect(removed.code).toBe(0);
    const list = (await (await v1("/models", TOKEN)).json()) as { data: Array<{ id: string }> };
    expect(list.data.map((model) => model.id)).not.toContain(modelPath);
    const gone = await v1("/chat/completions", TOKEN, { model: modelPath, messages: [{ role: "user", content: "hi" }] });
    expect(gone.status).toBe(404);
    expect((await endpoints()).map((endpoint) => endpoint.name)).toEqual(["gone", "wrong"]);
  }, 30_000);
});
