import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { assertShape, OpenAiErrorResponse } from "@svc/contracts/openai";
import type { SvcClient } from "@svc/client";
import { writeSnapshot } from "@svc/runtime-tiny-models";
import { dockerSocket, runSvc, sh, SPEECH_MODEL, startAppWithTinyModels, tempHome, TEXT_MODEL, type TinyApp } from "@svc/testing";

let tiny: TinyApp;
let app: TinyApp["app"];
let client: SvcClient;
let env: Record<string, string>;
/**
 * This app's speech image: one of svc's own (svc can build it) under a tag of this file's, missing
 * at first, so the test of a missing image never removes the image files running beside it use.
 */
const MISSING_SPEECH_IMAGE = `svc-speech-recognition:missing-${process.pid}-${Date.now()}`;

const status = async (id: string) => (await client.services.get(id)).status;
const reaches = (...args: Parameters<TinyApp["reaches"]>) => tiny.reaches(...args);

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_SPEECH_RECOGNITION_IMAGE: MISSING_SPEECH_IMAGE } });
  ({ app, client, env } = tiny);
}, 600_000);

afterAll(async () => {
  await tiny?.cleanup();
  Bun.spawnSync(["docker", "rmi", MISSING_SPEECH_IMAGE], { stdout: "ignore", stderr: "ignore" });
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
    const notReadyBody = await notReady.json();
    assertShape(OpenAiErrorResponse, notReadyBody, "the gateway's 503 for a stopped service");
    expect(notReadyBody.error).toMatchObject({ type: "server_error", code: "service_not_ready" });

    const restart = await runSvc(["restart", id.slice(0, 8)], env);
    expect(restart.code).toBe(0);
    await reaches(id, "HEALTHY");
    expect((await client.services.get(id)).events.filter((e) => e.to === "SUBMITTED")).toHaveLength(2);

    // A live service is a state conflict, not a usage error: exit 1, naming --force.
    const refused = await runSvc(["rm", id, "--yes"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is HEALTHY: stop it first");
    expect(refused.stderr).toContain(`svc rm --force ${id.slice(0, 13)}`);
    expect(refused.stderr).not.toContain("--help");
    const removed = await runSvc(["rm", id, "--yes", "--force"], env);
    expect(removed.stdout.trim()).toBe(`Removed service ${id}.`);
    expect((await runSvc(["details", id], env)).code).toBe(1);
  });

  test("a speech service (its missing image built first) transcribes a WAV from its input folder, anywhere svc can read but the system's folders", async () => {
    for (const [dir, why] of [["/etc", "--input-dir /etc: it is in /etc, which holds the system's own files"], ["/", "--input-dir /: it is the whole filesystem"]]) {
      const refused = await runSvc(["run", "speech-recognition", SPEECH_MODEL, "--input-dir", dir], env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(why);
    }
    // A folder of data outside svc's home and the profile's: nothing to allow first.
    const inputs = join(tempHome("svc-speech-data-"), "data", "in");
    mkdirSync(inputs, { recursive: true });
    sh(["espeak-ng", "-w", join(inputs, "hello.wav"), "hello world"]);
    // Without its image, run builds it first and says so.
    const image = MISSING_SPEECH_IMAGE;
    expect(Bun.spawnSync(["docker", "image", "inspect", image], { stdout: "ignore", stderr: "ignore" }).exitCode).not.toBe(0);
    const run = await runSvc(["run", "speech-recognition", SPEECH_MODEL, "--input-dir", inputs], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`The runtime image ${image} was missing, so it was built first.`);
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
    // A GGUF header with no metadata and no tensors registers as a text-generation model but cannot be loaded.
    const header = new DataView(new ArrayBuffer(24));
    new TextEncoder().encodeInto("GGUF", new Uint8Array(header.buffer));
    header.setUint32(4, 3, true); // version 3, then 0 tensors and 0 metadata entries
    writeSnapshot(join(tiny.modelsHome, "models"), "svc-tiny/empty-gguf", [{ name: "empty.gguf", bytes: new Uint8Array(header.buffer) }]);
    await client.models.refresh("default");
    const run = await runSvc(["run", "text-generation", "svc-tiny/empty-gguf"], env);
    const id = run.stdout.trim();
    await reaches(id, "FAILED");
    const details = await client.services.get(id);
    expect(details.reason).toContain("exited with code 1");
    expect(details.reason).toContain("could not load the model");
    const shown = await runSvc(["details", id], env);
    // The status line does not end in a cut-off "last output:"; the output follows in full.
    expect(shown.stdout).toMatch(/^status\s+FAILED \(exited with code 1; last output \(below\)\)$/m);
    expect(shown.stdout).not.toMatch(/last output:\)/);
    expect(shown.stdout).toContain("Reason (FAILED):\nexited with code 1; last output:\n");
    expect(shown.stdout).toContain("could not load the model");
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

  test("the task is read in either spelling: the CLI, the API and the UI's launch form", async () => {
    const cli = await runSvc(["run", "text_generation", TEXT_MODEL, "--dry-run"], env);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain("docker run");
    const api = await client.services.run({ task: "speech_recognition", model: SPEECH_MODEL, dryRun: true });
    expect(api.service).toBeNull();
    const texts = (await client.models.list({ image: "text_generation" })).map((m) => m.repo);
    expect(texts).toContain(TEXT_MODEL);
    expect(texts).not.toContain(SPEECH_MODEL);
    const page = await fetch(`${app.url}/services/new?task=speech_recognition`);
    expect(await page.text()).toMatch(/value="speech-recognition" checked/);
    const filtered = await fetch(`${app.url}/models?image=speech_recognition`);
    expect(await filtered.text()).toContain(SPEECH_MODEL);
  });

  test("an unknown model that is a registered repo's name, or a near miss, is suggested by its repo id", async () => {
    const name = TEXT_MODEL.split("/")[1];
    const bare = await runSvc(["run", "text-generation", name], env);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(`Model ${name} is not available to profile default. Did you mean ${TEXT_MODEL}?`);
    // The name alone is not a repo id: svc model add is not suggested for it.
    expect(bare.stderr).not.toContain(`svc model add ${name}`);
    const typo = await runSvc(["run", "text-generation", TEXT_MODEL.replace("llama", "lama")], env);
    expect(typo.stderr).toContain(`Did you mean ${TEXT_MODEL}?`);
    const unrelated = await runSvc(["run", "text-generation", "acme/something-else"], env);
    expect(unrelated.stderr).not.toContain("Did you mean");
    expect(unrelated.stderr).toContain("svc model add acme/something-else");
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
      ["run", "--gres", "2", "text-generation", TEXT_MODEL, "--dry-run", "--sharded", "true", "--max-total-tokens", "4096", "--disable-custom-kernels", "--api-key", "sk-vllm-key"],
      env,
    );
    expect(run.code).toBe(0);
    // vLLM takes its key from VLLM_API_KEY, which a shell sets from the mounted key file: the key is in no argument.
    expect(run.stdout).toContain("--gpus 2 --entrypoint /bin/sh vllm/vllm-openai:v0.28.0 -c ");
    expect(run.stdout).toContain(`--served-model-name ${TEXT_MODEL} --max-model-len 4096 --tensor-parallel-size 2 --enforce-eager`);
    expect(run.stdout).toContain("target=/run/secrets/svc-api-key,readonly");
    expect(run.stdout).not.toContain("sk-vllm-key");
  });
});

/**
 * A service's API key stays secret and its container holds no power it does not need: the key is
 * in no command line (`ps`), not in `docker inspect`, not in any preview (CLI, API, UI), and kept
 * once in the database; the container runs as a non-root user with every capability dropped, and
 * the runtime still serves.
 */
describe("keys and confinement on Docker", () => {
  const KEY = "sk-secret-0f3c9a7e5d";
  const docker = async <T>(path: string): Promise<T> => (await fetch(`http://docker/v1.41${path}`, { unix: dockerSocket() } as RequestInit)).json() as Promise<T>;

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
    // /api/health and svc info say the Docker Engine answers, with its version.
    const docker = (await client.health()).engines.find((e) => e.engine === "docker");
    expect(docker).toMatchObject({ profile: null, target: dockerSocket(), state: "reachable" });
    expect(docker!.detail).toMatch(/^Docker Engine \S+ \(API 1\.\d+\)$/);
    expect(cli.stdout).toMatch(/docker\s+\(local profiles\)\s+\S+\s+reachable\s+Docker Engine/);
  });
});
