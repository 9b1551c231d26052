/**
 * The runtime serving the tiny llama with its GGUF LoRA adapter (`--lora NAME=PATH`): one process,
 * the base under its name and the adapter under its own; the request's `model` picks which.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels, TINY_LORA_GGUF_FILE, TINY_LORA_GGUF_REPO } from "@svc/runtime-tiny-models";
import { API_KEY, client } from "./openai-contract";

let cacheDir: string;
let modelPath: string;
let adapterFile: string;
let runtime: RuntimeProcess;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-lora-serving-"));
  const tiny = makeTinyModels(cacheDir);
  modelPath = tiny.textGeneration;
  adapterFile = join(tiny.loraGguf, TINY_LORA_GGUF_FILE);
  runtime = await startRuntime("text-generation", ["--model", modelPath, "--api-key", API_KEY, "--threads", "1", "--ctx-size", "256", "--lora", `${TINY_LORA_GGUF_REPO}=${adapterFile}`]);
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

const ask = async (model: string) => {
  const answer = await client(runtime.url).chat.completions.create({ model, messages: [{ role: "user", content: "Hello world, tell me" }], max_tokens: 12, temperature: 0, seed: 7 });
  return { model: answer.model, text: answer.choices[0].message.content };
};

test("/v1/models lists the base, then the adapter with the base as its parent and root", async () => {
  const models = await client(runtime.url).models.list();
  expect(models.data.map((model) => model.id)).toEqual([modelPath, TINY_LORA_GGUF_REPO]);
  expect(models.data[1]).toMatchObject({ root: modelPath, parent: modelPath });
  const one = await client(runtime.url).models.retrieve(TINY_LORA_GGUF_REPO);
  expect(one).toMatchObject({ id: TINY_LORA_GGUF_REPO, parent: modelPath });
});

test("a chat naming the adapter answers differently from the base for the same seed; the base's answer stays the base's", async () => {
  const base = await ask(modelPath);
  const adapted = await ask(TINY_LORA_GGUF_REPO);
  expect(adapted.model).toBe(TINY_LORA_GGUF_REPO);
  expect(base.model).toBe(modelPath);
  expect(adapted.text).not.toBe(base.text);
  expect((await ask(modelPath)).text).toBe(base.text);
  expect((await ask(TINY_LORA_GGUF_REPO)).text).toBe(adapted.text);
});

test("an adapter unloaded and loaded again while the runtime runs (vLLM's routes): gone from /v1/models, then served as before", async () => {
  const post = (path: string, body: object, key = API_KEY) =>
    fetch(`${runtime.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const adapted = await ask(TINY_LORA_GGUF_REPO);
  expect((await post("/v1/unload_lora_adapter", { lora_name: TINY_LORA_GGUF_REPO })).status).toBe(200);
  expect((await client(runtime.url).models.list()).data.map((model) => model.id)).toEqual([modelPath]);
  const again = await post("/v1/unload_lora_adapter", { lora_name: TINY_LORA_GGUF_REPO });
  expect(again.status).toBe(404);
  expect(((await again.json()) as { error: { code: string } }).error.code).toBe("lora_adapter_not_found");

  expect((await post("/v1/load_lora_adapter", { lora_name: "svc-tiny/again", lora_path: "/nowhere/lora.gguf" })).status).toBe(400);
  expect((await post("/v1/load_lora_adapter", { lora_name: "svc-tiny/again", lora_path: adapterFile }, "wrong-key")).status).toBe(401);
  expect((await post("/v1/load_lora_adapter", { lora_name: "svc-tiny/again", lora_path: adapterFile })).status).toBe(200);
  expect((await client(runtime.url).models.list()).data.map((model) => model.id)).toEqual([modelPath, "svc-tiny/again"]);
  expect((await ask("svc-tiny/again")).text).toBe(adapted.text);
});
