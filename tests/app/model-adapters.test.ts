/**
 * LoRA adapters in the registry, end to end (issue 42, part 1): the tiny adapters the generator
 * writes are listed by `svc model ls` with their bases, `svc model show` prints their facts, the
 * API, the client and the Models page show them, and an adapter is refused as a model — by `svc
 * run` and a deployment — before anything starts, naming its base and how to serve it. A batch job
 * runs an adapter on its base (batch-adapters.test.ts), but not a PEFT one on the CPU runtime.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiError, SvcClient } from "@svc/client";
import { LORA_GGUF, LORA_PEFT, registerTinyModels, repoDir, runSvc, SAFETENSORS_MODEL, startSvc, TEXT_MODEL, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let modelsHome: string;

beforeAll(async () => {
  app = await startSvc();
  client = new SvcClient({ baseUrl: app.url });
  modelsHome = await registerTinyModels(client, app.home);
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
});

const svc = (...args: string[]) => runSvc(args, env);

describe("the tiny adapters in the registry", () => {
  test("svc model ls: a BASE column with each adapter's base; models have none", async () => {
    const ls = await svc("model", "ls");
    expect(ls.code, ls.stderr).toBe(0);
    const lines = ls.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^REPO +REVISION +PROFILE +IMAGE +BASE +PARAMS +WEIGHTS +FILES$/);
    const line = (repo: string) => lines.find((l) => l.startsWith(`${repo} `))!;
    expect(line(LORA_GGUF)).toMatch(new RegExp(`^${LORA_GGUF} +[0-9a-f]{40} +default +text-generation +${TEXT_MODEL} +\\S+ +\\S+ kB +all$`));
    expect(line(LORA_PEFT)).toMatch(new RegExp(`^${LORA_PEFT} +[0-9a-f]{40} +default +text-generation +${SAFETENSORS_MODEL} +\\S+ +\\S+ kB +all$`));
    expect(line(TEXT_MODEL)).toMatch(/ +text-generation +- +/);
    // Every base is there: nothing is said to be missing.
    expect(ls.stderr).toBe("");
  });

  test("svc model ls --kind adapter --json, and the API and client: the adapters alone, each with its facts and its base's state", async () => {
    const json = await svc("model", "ls", "--kind", "adapter", "--json");
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.map((r: { repo: string }) => r.repo)).toEqual([LORA_GGUF, LORA_PEFT]);
    const adapters = await client.models.list({ kind: "adapter" });
    expect(adapters).toEqual(rows);
    expect(adapters[0]).toMatchObject({ adapter: { kind: "gguf", base: TEXT_MODEL, rank: 8, layers: 2 }, adapterBase: { state: "registered", repo: TEXT_MODEL } });
    expect(adapters[1]).toMatchObject({ adapter: { kind: "peft", base: SAFETENSORS_MODEL, file: "adapter_model.safetensors", taskType: "CAUSAL_LM" }, adapterBase: { state: "registered" } });
    expect((await client.models.list({ kind: "model" })).some((m) => m.adapter)).toBe(false);
  });

  test("svc model show: the adapter's base, rank, alpha and modules with their shapes", async () => {
    const show = await svc("model", "show", LORA_PEFT);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("adapter:        LoRA, peft (adapter_model.safetensors)\n");
    expect(show.stdout).toContain(`base:           ${SAFETENSORS_MODEL}\n`);
    expect(show.stdout).toContain(`base_state:     registered: Base ${SAFETENSORS_MODEL} is registered.\n`);
    expect(show.stdout).toContain("rank:           8\n");
    expect(show.stdout).toContain("self_attn.q_proj 64→64 ×2, self_attn.k_proj 64→32 ×2");
  });

  test("the Models page marks each adapter and its base, and offers no Launch for it", async () => {
    const page = await (await fetch(`${app.url}/models`)).text();
    const row = (repo: string) => new RegExp(`<tr data-repo="${repo}">([\\s\\S]*?)</tr>`).exec(page)?.[1] ?? "";
    expect(row(LORA_GGUF)).toContain("LoRA adapter");
    expect(row(LORA_GGUF)).toContain(`of <code>${TEXT_MODEL}</code>`);
    expect(row(LORA_GGUF)).not.toContain("Launch");
    expect(row(TEXT_MODEL)).toContain("Launch");
  });
});

describe("an adapter is refused as a model, before anything starts", () => {
  const command = `'svc run text-generation ${TEXT_MODEL} --adapter ${LORA_GGUF}'`;
  const message = `${LORA_GGUF} is a LoRA adapter (gguf) of ${TEXT_MODEL}, not a model: serve it on its base with ${command}.`;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("accepted");
      },
      (error) => error as ApiError,
    );

  test("svc run, its --dry-run and a deployment (--replicas): the reason and how to serve it; no service recorded", async () => {
    for (const extra of [[], ["--dry-run"], ["--replicas", "2"]]) {
      const run = await svc("run", "text-generation", LORA_GGUF, ...extra);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(message);
    }
    const api = await refusal(client.services.run({ task: "text-generation", model: LORA_GGUF }));
    expect({ status: api.status, code: api.code, message: api.message }).toEqual({ status: 400, code: "model_is_adapter", message });
    expect(await client.services.list({ all: true })).toEqual([]);
    expect(await client.deployments.list()).toEqual([]);
  });

  test("a batch job of a PEFT adapter on the CPU runtime is refused, saying why", async () => {
    const input = join(app.home, "requests.jsonl");
    writeFileSync(input, "{}\n");
    const error = await refusal(client.batches.run({ task: "openai", model: LORA_PEFT, input, output: join(app.home, "results.jsonl") }));
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: "invalid_request" });
    expect(error.message).toStartWith(`${LORA_PEFT} is a PEFT adapter: the CPU runtime serves GGUF LoRA adapters`);
  });

  test("an adapter whose base is not in the registry: listed with what is missing, and the refusal says it too", async () => {
    rmSync(repoDir(join(modelsHome, "models"), SAFETENSORS_MODEL), { recursive: true, force: true });
    const ls = await svc("model", "ls", "--refresh");
    expect(ls.code, ls.stderr).toBe(0);
    const missing = `Base ${SAFETENSORS_MODEL} is not in the registry of profile default: svc model add ${SAFETENSORS_MODEL}`;
    expect(ls.stdout).toMatch(new RegExp(`^${LORA_PEFT} .* ${SAFETENSORS_MODEL} \\(not registered\\) `, "m"));
    expect(ls.stderr).toContain(`${LORA_PEFT} (default): ${missing}`);
    const run = await svc("run", "text-generation", LORA_PEFT);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${LORA_PEFT} is a LoRA adapter (peft) of ${SAFETENSORS_MODEL}, not a model`);
    expect(run.stderr).toContain(missing);
  });
});
