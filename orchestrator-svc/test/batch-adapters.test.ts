/**
 * A batch job given a LoRA adapter as its model (issue 42): it runs the adapter's base with the
 * adapter, as `svc run BASE --adapter NAME` would serve it, and its driver names the adapter in every
 * request; the record says which adapter on which base. An adapter without a registered base, one
 * that does not fit, or a PEFT adapter on the CPU runtime is refused before anything starts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FakeEngine } from "@svc/testing";
import type { ApiError, BatchRunRequest, Model, ModelFacts, Profile } from "@svc/contracts";
import { BatchStore } from "../src/db/batch-store";
import { BatchesService } from "../src/batches/service";
import { planBatch } from "../src/batches/plan";
import { batchContainerConfig } from "../src/engines/docker/batch-container";
import { plannerDeps } from "./planner-deps";

const home = mkdtempSync(join(tmpdir(), "svc-batch-adapters-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const models = join(home, "models");

function row(repo: string, files: string[], extra: Partial<Model>): Model {
  const modelDir = join(models, `models--${repo.replace("/", "--")}`, "snapshots", "a".repeat(40));
  mkdirSync(modelDir, { recursive: true });
  for (const file of files) writeFileSync(join(modelDir, file), "x");
  return { repo, revision: "a".repeat(40), profile: "default", image: "text-generation", modelDir, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z", ...extra };
}
const sizes: ModelFacts = { architecture: "llama", hiddenSize: 64, attentionHeads: 4, kvHeads: 2, headDim: 16, intermediateSize: 128, layers: 2, vocabSize: 512 };
const attnQ = (inFeatures: number) => [{ name: "attn_q", inFeatures, outFeatures: inFeatures, rank: 8, layers: 2 }];

const base = row("svc-tiny/tiny-llama-gguf", ["tiny.gguf"], { facts: { ...sizes, weightFormat: "gguf" } });
const lora = row("svc-tiny/tiny-llama-lora-gguf", ["lora.gguf"], { facts: { architecture: "llama" }, adapter: { kind: "gguf", file: "lora.gguf", base: base.repo, rank: 8, modules: attnQ(64), layers: 2 } });
const wide = row("acme/wide-lora", ["lora.gguf"], { adapter: { kind: "gguf", file: "lora.gguf", base: base.repo, rank: 8, modules: attnQ(4096), layers: 2 } });
const peft = row("acme/peft-lora", ["adapter_model.safetensors"], { adapter: { kind: "peft", file: "adapter_model.safetensors", base: base.repo, rank: 8 } });
const orphan = row("acme/orphan-lora", ["lora.gguf"], { adapter: { kind: "gguf", file: "lora.gguf", base: "acme/not-here" } });
const unnamed = row("acme/anon-lora", ["lora.gguf"], { facts: { architecture: "llama" }, adapter: { kind: "gguf", file: "lora.gguf" } });
const rows = [base, lora, wide, peft, orphan, unnamed];

const deps = () => ({ ...plannerDeps({}, local, base), models: async (_profile: string, repo?: string) => rows.filter((each) => repo === undefined || each.repo === repo) });
const inputDir = join(home, "in");
mkdirSync(inputDir);
const chat = (model: string, extra: Partial<BatchRunRequest> = {}): BatchRunRequest => ({ task: "chat", model, inputDir, outputDir: join(home, "out"), ...extra });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error) => error as ApiError,
  );

describe("svc batch run chat ADAPTER", () => {
  test("runs the base with the adapter (--lora, its folder seen by the container) and the driver names the adapter in each request", async () => {
    const engine = new FakeEngine("docker");
    const store = new BatchStore(join(mkdtempSync(join(home, "db-")), "orchestrator.db"));
    const batches = new BatchesService({ store, uploadsDir: home, planner: deps(), engineFor: () => engine, engineOf: () => engine, wake: () => {} });
    const { batch } = await batches.run(chat(lora.repo, { params: { seed: 1, temperature: 0 } }));
    expect(batch).toMatchObject({ model: base.repo, revision: base.revision, adapter: lora.repo, task: "chat" });
    expect((await batches.details(batch!.id)).adapter).toBe(lora.repo);

    const [spec] = engine.submitted;
    expect(spec.modelDir).toBe(base.modelDir);
    expect(spec.args).toEqual(["--lora", `${lora.repo}=${join(lora.modelDir, "lora.gguf")}`]);
    expect(spec.batch!.args.slice(spec.batch!.args.indexOf("--model"), spec.batch!.args.indexOf("--model") + 2)).toEqual(["--model", lora.repo]);
    const container = batchContainerConfig(spec, { network: "host", homeLabel: "h", user: "1000:1000" });
    expect(container.body.HostConfig.Mounts).toContainEqual({ Type: "bind", Source: models, Target: models, ReadOnly: true });
    expect(container.body.Cmd).toContain(`${lora.repo}=${join(lora.modelDir, "lora.gguf")}`);

    // A resumed job starts the same way: the adapter and its mount are in the record.
    await batches.stop(batch!.id);
    store.transition(batch!.id, "STOPPED", "stopped");
    await batches.resume(batch!.id, false);
    expect(engine.submitted[1].mounts).toEqual(spec.mounts);
    expect(engine.submitted[1].batch!.args).toContain(lora.repo);
  });

  test("a model's job is as before: no adapter, no --model, no mounts", async () => {
    const { stored, plan } = await planBatch(chat(base.repo), deps(), { uploadsDir: home, id: "job" });
    expect(stored.adapter).toBeUndefined();
    expect(stored.launch.mounts).toBeUndefined();
    expect(plan.adapters).toEqual([]);
  });

  test("openai jobs of an adapter name it too; --revision pins the base", async () => {
    const input = join(home, "requests.jsonl");
    writeFileSync(input, "{}\n");
    const { stored, plan } = await planBatch({ task: "openai", model: lora.repo, input, output: join(home, "results.jsonl"), revision: "a".repeat(12) }, deps(), { uploadsDir: home, id: "job" });
    expect({ adapter: stored.adapter, base: plan.model.repo }).toEqual({ adapter: lora.repo, base: base.repo });
  });
});

describe("refused before anything starts, with the reason", () => {
  test.each([
    [orphan.repo, 404, "adapter_base_not_found", "acme/orphan-lora is a LoRA adapter (gguf) of acme/not-here, which is not in the registry of profile default: a batch job runs the adapter on its base. Download it with 'svc model add acme/not-here --profile default'"],
    [unnamed.repo, 400, "invalid_request", "acme/anon-lora is a LoRA adapter (gguf) that names no base model, and a batch job runs an adapter on its base: serve it with 'svc run text-generation BASE --adapter acme/anon-lora' (a llama model it fits)"],
    [peft.repo, 400, "invalid_request", "acme/peft-lora is a PEFT adapter: the CPU runtime serves GGUF LoRA adapters; convert with llama.cpp's convert_lora_to_gguf.py"],
    [wide.repo, 400, "invalid_request", "acme/wide-lora does not fit svc-tiny/tiny-llama-gguf: attn_q is 4096→4096 in acme/wide-lora, 64→64 in svc-tiny/tiny-llama-gguf"],
  ])("%s", async (model, status, code, message) => {
    const error = await refusal(planBatch(chat(model), deps(), { uploadsDir: home, id: "job" }));
    expect({ status: error.status, code: error.code, field: (error.details as { field?: string }).field }).toEqual({ status, code, field: "model" });
    expect(error.message).toStartWith(message);
  });

  test("embed on the CPU runtime (its embeddings are the base's whatever the adapter), and transcribe", async () => {
    const embed = await refusal(planBatch(chat(lora.repo, { task: "embed" }), deps(), { uploadsDir: home, id: "job" }));
    expect(embed.message).toBe(`${lora.repo} is a LoRA adapter: svc's CPU runtime embeds with the base model, adapter or not. Run 'svc batch run embed ${base.repo} …' instead.`);
    const transcribe = await refusal(planBatch(chat(lora.repo, { task: "transcribe" }), deps(), { uploadsDir: home, id: "job" }));
    expect(transcribe.message).toStartWith(`${lora.repo} is a text-generation model: it cannot transcribe.`);
  });
});

test("the adapter's folder is mounted at its own path when it lies outside the base's models folder", async () => {
  const elsewhere = { ...lora, repo: "acme/elsewhere-lora", modelDir: join(home, "other", "snapshot") };
  mkdirSync(elsewhere.modelDir, { recursive: true });
  writeFileSync(join(elsewhere.modelDir, "lora.gguf"), "x");
  const withElsewhere = { ...deps(), models: async (_profile: string, repo?: string) => [...rows, elsewhere].filter((each) => repo === undefined || each.repo === repo) };
  const { stored } = await planBatch(chat(elsewhere.repo), withElsewhere, { uploadsDir: home, id: "job" });
  expect(stored.launch.mounts?.map((mount) => mount.target)).toEqual([models, dirname(join(elsewhere.modelDir, "lora.gguf"))]);
});
