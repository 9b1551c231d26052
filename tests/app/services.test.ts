import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { ensureDocker, eventually, REPO_ROOT, runSvc, startSvc, type RunningSvc } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const SPEECH_MODEL = "svc-tiny/tiny-whisper-ggml";

let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let modelsHome: string;

function sh(command: string[], cwd = REPO_ROOT) {
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "pipe", env: process.env });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed:\n${result.stderr.toString()}`);
  return result.stdout.toString();
}

const status = async (id: string) => (await client.services.get(id)).status;
const reaches = (id: string, wanted: ServiceStatus, ms = 60_000) =>
  eventually(async () => (await status(id)) === wanted, ms, `${id} to be ${wanted}`);

beforeAll(async () => {
  ensureDocker();
  sh([process.execPath, "images/build.ts"]);
  app = await startSvc();
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
  client = new SvcClient({ baseUrl: app.url });
  modelsHome = join(app.home, "profile-home");
  mkdirSync(join(app.home, "shared-cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: modelsHome, cache_dir: join(app.home, "shared-cache") });
  sh([process.execPath, "runtimes/tiny-models/src/cli.ts", join(modelsHome, "models")]);
  await client.models.refresh("default");
  const registered = await client.models.list({ profile: "default" });
  expect(registered.map((m) => m.repo).sort()).toEqual([TEXT_MODEL, SPEECH_MODEL]);
}, 600_000);

afterAll(async () => {
  for (const service of await client.services.list({ all: true })) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app.cleanup();
});

describe("services on Docker, end to end", () => {
  test("run → HEALTHY → chat on its port and through /proxy (streamed) → stop → restart → rm", async () => {
    const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", "chat", "--api-key", "sk-test-key"], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Found 1 registered revision of ${TEXT_MODEL}`);
    expect(run.stderr).toContain("No --revision given");
    const id = run.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const ls = await runSvc(["ls"], env);
    expect(ls.stdout).toMatch(/^SERVICE ID\s+IMAGE\s+MODEL\s+CREATED\s+UPDATED\s+STATUS\s+PORT\s+NAME\s+PROFILE/);
    expect(ls.stdout).toContain(id.slice(0, 13));
    expect(ls.stdout).toContain("text_generation");

    await reaches(id, "HEALTHY");
    const details = await client.services.get(id);
    expect(details.port).toBeGreaterThan(0);
    expect(details.phases.ready).not.toBeNull();

    const direct = new OpenAI({ baseURL: `${details.url}/v1`, apiKey: "sk-test-key" });
    const answer = await direct.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0 });
    expect(answer.object).toBe("chat.completion");
    expect(answer.usage!.completion_tokens).toBeGreaterThan(0);

    const viaProxy = new OpenAI({ baseURL: `${app.url}/proxy/${id}/v1`, apiKey: "sk-test-key" });
    const stream = await viaProxy.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0, stream: true });
    let chunks = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) chunks++;
    expect(chunks).toBeGreaterThan(0);

    const wrongKey = await fetch(`${app.url}/proxy/${id}/v1/models`, { headers: { authorization: "Bearer wrong" } });
    expect(wrongKey.status).toBe(401);
    const rightKey = await fetch(`${app.url}/proxy/${id}/v1/models`, { headers: { authorization: "Bearer sk-test-key" } });
    expect(rightKey.status).toBe(200);

    const logs = await runSvc(["logs", id, "--tail", "50"], env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain("ready on http://127.0.0.1:");

    const stop = await runSvc(["stop", id.slice(0, 13)], env);
    expect(stop.stdout.trim()).toBe(`Stopped service ${id}.`);
    expect(await status(id)).toBe("STOPPED");
    const notReady = await fetch(`${app.url}/proxy/${id}/v1/models`);
    expect(notReady.status).toBe(503);

    const restart = await runSvc(["restart", id.slice(0, 8)], env);
    expect(restart.code).toBe(0);
    await reaches(id, "HEALTHY");
    expect((await client.services.get(id)).events.filter((e) => e.to === "SUBMITTED")).toHaveLength(2);

    const refused = await runSvc(["rm", id, "--yes"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("stop it first");
    const removed = await runSvc(["rm", id, "--yes", "--force"], env);
    expect(removed.stdout.trim()).toBe(`Removed service ${id}.`);
    expect((await runSvc(["details", id], env)).code).toBe(1);
  });

  test("a speech service (its missing image built first) transcribes a WAV from its input folder", async () => {
    const inputs = join(modelsHome, "audio-in");
    mkdirSync(inputs, { recursive: true });
    sh(["espeak-ng", "-w", join(inputs, "hello.wav"), "hello world"]);
    // Without its image (only the tag goes; the content-tagged image stays), run builds it first and says so.
    sh(["docker", "rmi", "svc-speech-recognition:latest"]);
    const run = await runSvc(["run", "speech-recognition", SPEECH_MODEL, "--input-dir", inputs], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("The runtime image svc-speech-recognition:latest was missing, so it was built first.");
    const id = run.stdout.trim();
    await reaches(id, "HEALTHY");
    const response = await fetch(`${app.url}/proxy/${id}/transcribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ audio_path: "hello.wav", response_format: "text" }),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ audio_path: "hello.wav", segments: null, task: "transcribe" });
    expect(typeof body.text).toBe("string");
    await client.services.stop(id);
  });

  test("a service whose server exits turns FAILED with its exit code and output", async () => {
    const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--threads", "many"], env);
    const id = run.stdout.trim();
    await reaches(id, "FAILED");
    const details = await client.services.get(id);
    expect(details.reason).toContain("exited with code 2");
    expect(details.reason).toContain("--threads");
    const shown = await runSvc(["details", id], env);
    expect(shown.stdout).toContain("FAILED (exited with code 2");
  });

  test("an orchestrator killed while a service starts is restarted, and the service still becomes HEALTHY, once", async () => {
    const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", "survivor"], env);
    const id = run.stdout.trim();
    process.kill(app.lock().components["orchestrator-svc"].pid!, "SIGKILL");
    await reaches(id, "HEALTHY");
    const named = (await client.services.list({ all: true })).filter((s) => s.name === "survivor");
    expect(named.map((s) => s.id)).toEqual([id]);
    await client.services.stop(id);
  });

  test("a hostile name is refused and runs nothing", async () => {
    const marker = join(app.home, "pwned");
    const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", `x; touch ${marker}`], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--name");
    expect(existsSync(marker)).toBe(false);
  });

  test("a GPU request renders the vLLM command line with the mapped options", async () => {
    const run = await runSvc(
      ["run", "--gres", "2", "text-generation", TEXT_MODEL, "--dry-run", "--sharded", "true", "--max-total-tokens", "4096", "--disable-custom-kernels", "--api-key", "k"],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--gpus 2 vllm/vllm-openai:latest");
    expect(run.stdout).toContain(`--served-model-name ${TEXT_MODEL} --max-model-len 4096 --tensor-parallel-size 2 --enforce-eager --api-key k`);
  });
});
