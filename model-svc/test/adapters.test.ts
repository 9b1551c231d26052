/** LoRA adapters in the registry: found by a refresh, recorded with their base, never listed as models of their own. */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { openDatabase } from "@svc/platform/db";
import {
  makeTinyModels,
  TINY_LORA,
  TINY_LORA_GGUF_FILE,
  TINY_LORA_GGUF_REPO,
  TINY_LORA_PEFT_REPO,
  TINY_SAFETENSORS_REPO,
  TINY_TEXT_REPO,
} from "@svc/runtime-tiny-models";
import { commitOf, llamaTensors, writeCachedSnapshot, writeSparseSafetensors, type CacheFile } from "@svc/testing";
import { MIGRATIONS_DIR } from "../src/db/connection";
import * as schema from "../src/db/schema";
import { localProfile, makeServices, tempDir } from "./helpers";

const base = tempDir("adapters-");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The files of a snapshot folder, read (links followed), for writing them elsewhere. */
const filesOf = (dir: string): CacheFile[] => readdirSync(dir).map((path) => ({ path, content: readFileSync(join(dir, path)) }));

const TINY_MODULES = ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"];

describe("the tiny adapters, refreshed with their bases", async () => {
  const profile = localProfile("default", base);
  const tiny = makeTinyModels(join(profile.home_dir, "models"));
  const s = makeServices({ profiles: [profile] });
  const report = await s.models.refresh("default");
  const byRepo = Object.fromEntries(s.models.list().map((m) => [m.repo, m]));
  afterAll(() => s.close());

  test("nothing is left out, nothing is incomplete", () => {
    expect(report.issues).toEqual([]);
    expect(s.models.list({ kind: "model" }).map((m) => m.repo)).toEqual(["svc-tiny/tiny-llama-gguf", TINY_SAFETENSORS_REPO, "svc-tiny/tiny-whisper-ggml"]);
    expect(s.models.list({ kind: "adapter" }).map((m) => m.repo)).toEqual([TINY_LORA_GGUF_REPO, TINY_LORA_PEFT_REPO]);
  });

  test("the GGUF adapter: an adapter of the tiny llama (general.type adapter), with its alpha, rank and modules; not a model", () => {
    const gguf = byRepo[TINY_LORA_GGUF_REPO];
    expect(gguf.image).toBe("text-generation");
    expect(gguf.adapter).toEqual({
      kind: "gguf",
      file: TINY_LORA_GGUF_FILE,
      base: TINY_TEXT_REPO,
      rank: TINY_LORA.rank,
      alpha: TINY_LORA.alpha,
      targetModules: ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"],
      modules: [
        { name: "attn_q", inFeatures: 64, outFeatures: 64, rank: 8, layers: 2 },
        { name: "attn_k", inFeatures: 64, outFeatures: 32, rank: 8, layers: 2 },
        { name: "attn_v", inFeatures: 64, outFeatures: 32, rank: 8, layers: 2 },
        { name: "attn_output", inFeatures: 64, outFeatures: 64, rank: 8, layers: 2 },
        { name: "ffn_gate", inFeatures: 64, outFeatures: 128, rank: 8, layers: 2 },
        { name: "ffn_up", inFeatures: 64, outFeatures: 128, rank: 8, layers: 2 },
        { name: "ffn_down", inFeatures: 128, outFeatures: 64, rank: 8, layers: 2 },
      ],
      layers: 2,
    });
    expect(gguf.adapterBase).toEqual({ state: "registered", repo: TINY_TEXT_REPO, problems: [], message: `Base ${TINY_TEXT_REPO} is registered.` });
    expect(gguf.facts).toMatchObject({ architecture: "llama", weightFormat: "gguf", dtype: "F32" });
    // The base itself is a model.
    expect(byRepo[TINY_TEXT_REPO].adapter).toBeUndefined();
    expect(byRepo[TINY_TEXT_REPO].adapterBase).toBeUndefined();
  });

  test("the PEFT adapter: adapter_config.json and the shapes of its safetensors header; its base is the safetensors llama", () => {
    const peft = byRepo[TINY_LORA_PEFT_REPO];
    expect(peft.image).toBe("text-generation");
    expect(peft.adapter).toMatchObject({ kind: "peft", file: "adapter_model.safetensors", base: TINY_SAFETENSORS_REPO, rank: 8, alpha: TINY_LORA.alpha, layers: 2, taskType: "CAUSAL_LM" });
    expect(peft.adapter?.targetModules).toEqual(["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]);
    expect(peft.adapter?.modules?.map((m) => m.name)).toEqual(TINY_MODULES);
    expect(peft.adapter?.modules?.find((m) => m.name === "self_attn.k_proj")).toEqual({ name: "self_attn.k_proj", inFeatures: 64, outFeatures: 32, rank: 8, layers: 2 });
    // Its own size: 2 layers × 7 modules × (A + B) in F32.
    const elements = 2 * [64 + 64, 64 + 32, 64 + 32, 64 + 64, 64 + 128, 64 + 128, 128 + 64].reduce((a, b) => a + b, 0) * TINY_LORA.rank;
    expect(peft.facts).toMatchObject({ parameters: elements, weightBytes: elements * 4, dtype: "float32", weightFormat: "safetensors", files: ["adapter_model.safetensors", "adapter_config.json"] });
    expect(peft.adapterBase?.state).toBe("registered");
    expect(byRepo[TINY_SAFETENSORS_REPO].facts).toMatchObject({ architecture: "LlamaForCausalLM", weightFormat: "safetensors", hiddenSize: 64, layers: 2 });
  });

  test("a second refresh reads nothing again and keeps the adapters as they were", async () => {
    const again = await s.models.refresh("default");
    expect(again.profiles[0]).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
    expect(s.models.list({ repo: TINY_LORA_PEFT_REPO })[0]).toEqual(byRepo[TINY_LORA_PEFT_REPO]);
    expect(s.models.list({ repo: TINY_LORA_GGUF_REPO })[0]).toEqual(byRepo[TINY_LORA_GGUF_REPO]);
    expect(tiny.loraPeft).toContain(TINY_LORA_PEFT_REPO.replace("/", "--"));
  });
});

describe("an adapter's base, as the registry of its profile has it", () => {
  test("not registered: the adapter is listed all the same, with the command that gets its base", async () => {
    const profile = localProfile("lonely", base);
    const tiny = makeTinyModels(join(base, "lonely-source"));
    writeCachedSnapshot(join(profile.home_dir, "models"), TINY_LORA_PEFT_REPO, commitOf("peft"), filesOf(tiny.loraPeft));
    const s = makeServices({ profiles: [profile] });
    await s.models.refresh();
    const [adapter] = s.models.list();
    expect(adapter.adapterBase).toEqual({
      state: "not_registered",
      repo: TINY_SAFETENSORS_REPO,
      problems: [],
      message: `Base ${TINY_SAFETENSORS_REPO} is not in the registry of profile lonely: svc model add ${TINY_SAFETENSORS_REPO} --profile lonely`,
    });
    s.close();
  });

  test("registered but of other sizes: does_not_fit, with each module that differs", async () => {
    const profile = localProfile("mismatch", base);
    const tiny = makeTinyModels(join(base, "mismatch-source"));
    const models = join(profile.home_dir, "models");
    writeCachedSnapshot(models, TINY_LORA_PEFT_REPO, commitOf("peft"), filesOf(tiny.loraPeft));
    // A "base" of that name twice as wide.
    const config = { architectures: ["LlamaForCausalLM"], model_type: "llama", hidden_size: 128, intermediate_size: 256, num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 469 };
    const weights = join(base, "wide.safetensors");
    writeSparseSafetensors(weights, llamaTensors(config, "F32"));
    writeCachedSnapshot(models, TINY_SAFETENSORS_REPO, commitOf("wide"), [
      { path: "config.json", content: JSON.stringify(config) },
      { path: "model.safetensors", content: readFileSync(weights) },
    ]);
    const s = makeServices({ profiles: [profile] });
    await s.models.refresh();
    const adapter = s.models.list({ kind: "adapter" })[0];
    expect(adapter.adapterBase?.state).toBe("does_not_fit");
    expect(adapter.adapterBase?.problems).toContain(`self_attn.q_proj is 64→64 in ${TINY_LORA_PEFT_REPO}, 128→128 in ${TINY_SAFETENSORS_REPO}.`);
    expect(adapter.adapterBase?.problems).toContain(`mlp.down_proj is 128→64 in ${TINY_LORA_PEFT_REPO}, 256→128 in ${TINY_SAFETENSORS_REPO}.`);
    expect(adapter.adapterBase?.message).toStartWith(`Base ${TINY_SAFETENSORS_REPO} is registered, but it does not fit: `);
    s.close();
  });

  test("an adapter that names no repo as its base (a local path) says so; the model card's base_model is used when it names one", async () => {
    const profile = localProfile("paths", base);
    const tiny = makeTinyModels(join(base, "paths-source"));
    const models = join(profile.home_dir, "models");
    const config = JSON.parse(readFileSync(join(tiny.loraPeft, "adapter_config.json"), "utf8"));
    const weights = { path: "adapter_model.safetensors", content: readFileSync(join(tiny.loraPeft, "adapter_model.safetensors")) };
    const local = { path: "adapter_config.json", content: JSON.stringify({ ...config, base_model_name_or_path: "/data/llama" }) };
    writeCachedSnapshot(models, "acme/path-lora", commitOf("path"), [local, weights]);
    writeCachedSnapshot(models, "acme/carded-lora", commitOf("card"), [local, weights, { path: "README.md", content: "---\nbase_model:\n- acme/llama\nlibrary_name: peft\n---\n" }]);
    const cached = { path: "adapter_config.json", content: JSON.stringify({ ...config, base_model_name_or_path: "/root/.cache/huggingface/hub/models--acme--llama/snapshots/abc" }) };
    writeCachedSnapshot(models, "acme/cached-lora", commitOf("cached"), [cached, weights]);
    const s = makeServices({ profiles: [profile] });
    await s.models.refresh();
    const byRepo = Object.fromEntries(s.models.list().map((m) => [m.repo, m]));
    expect(byRepo["acme/path-lora"].adapter).toMatchObject({ baseNamed: "/data/llama" });
    expect(byRepo["acme/path-lora"].adapter?.base).toBeUndefined();
    expect(byRepo["acme/path-lora"].adapterBase).toEqual({ state: "not_named", problems: [], message: 'It names "/data/llama" as its base, which is not a repo id: serve it on a registered model it fits.' });
    expect(byRepo["acme/carded-lora"].adapter).toMatchObject({ base: "acme/llama", baseNamed: "/data/llama" });
    expect(byRepo["acme/cached-lora"].adapter?.base).toBe("acme/llama");
    s.close();
  });
});

describe("what is not an adapter svc registers, and what is registered with incomplete facts", () => {
  test("an adapter_config.json without weights, another PEFT method, a task svc cannot tell, a config that is not JSON: not registered, each with its reason", async () => {
    const profile = localProfile("refused", base);
    const models = join(profile.home_dir, "models");
    const lora = { peft_type: "LORA", task_type: "CAUSAL_LM", r: 8, lora_alpha: 16, base_model_name_or_path: "acme/llama", target_modules: ["q_proj"] };
    const weights = { path: "adapter_model.safetensors", content: new Uint8Array(16) };
    writeCachedSnapshot(models, "acme/no-weights", commitOf("1"), [{ path: "adapter_config.json", content: JSON.stringify(lora) }]);
    writeCachedSnapshot(models, "acme/ia3", commitOf("2"), [{ path: "adapter_config.json", content: JSON.stringify({ ...lora, peft_type: "IA3" }) }, weights]);
    writeCachedSnapshot(models, "acme/seq2seq", commitOf("3"), [{ path: "adapter_config.json", content: JSON.stringify({ ...lora, task_type: "SEQ_2_SEQ_LM" }) }, weights]);
    writeCachedSnapshot(models, "acme/broken", commitOf("4"), [{ path: "adapter_config.json", content: "{ not json" }, weights]);
    const s = makeServices({ profiles: [profile] });
    const report = await s.models.refresh();
    expect(s.models.list()).toEqual([]);
    expect(Object.fromEntries(report.issues.map((i) => [i.repo, i.reason]))).toEqual({
      "acme/no-weights": "a PEFT adapter (adapter_config.json) without its weights: adapter_model.safetensors is missing",
      "acme/ia3": "a PEFT IA3 adapter: svc registers LoRA adapters only",
      "acme/seq2seq": "a PEFT LoRA adapter whose task svc cannot tell: adapter_config.json task_type SEQ_2_SEQ_LM, no model card pipeline_tag",
      "acme/broken": "a PEFT adapter whose adapter_config.json is not valid JSON",
    });
    s.close();
  });

  test("a model that ships an adapter_config.json beside its own weights is a model", async () => {
    const profile = localProfile("merged", base);
    const config = JSON.stringify({ architectures: ["LlamaForCausalLM"], model_type: "llama" });
    writeCachedSnapshot(join(profile.home_dir, "models"), "acme/merged", commitOf("m"), [
      { path: "config.json", content: config },
      { path: "model.safetensors", content: "weights" },
      { path: "adapter_config.json", content: JSON.stringify({ peft_type: "LORA", r: 8 }) },
      { path: "adapter_model.safetensors", content: "adapter" },
    ]);
    const s = makeServices({ profiles: [profile] });
    await s.models.refresh();
    const [merged] = s.models.list();
    expect(merged.repo).toBe("acme/merged");
    expect(merged.adapter).toBeUndefined();
    s.close();
  });

  test("an A without its B: the adapter is registered, its modules unknown, the problem a scan issue", async () => {
    const profile = localProfile("halves", base);
    const path = join(base, "halves.safetensors");
    writeSparseSafetensors(path, [
      { name: "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight", dtype: "F32", shape: [8, 64] },
      { name: "base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight", dtype: "F32", shape: [64, 8] },
      { name: "base_model.model.model.layers.0.self_attn.v_proj.lora_A.weight", dtype: "F32", shape: [8, 64] },
    ]);
    const config = { peft_type: "LORA", task_type: "CAUSAL_LM", r: 8, lora_alpha: 16, base_model_name_or_path: "acme/llama", target_modules: ["q_proj", "v_proj"] };
    writeCachedSnapshot(join(profile.home_dir, "models"), "acme/halves", commitOf("h"), [
      { path: "adapter_config.json", content: JSON.stringify(config) },
      { path: "adapter_model.safetensors", content: readFileSync(path) },
    ]);
    const s = makeServices({ profiles: [profile] });
    const report = await s.models.refresh();
    const [adapter] = s.models.list();
    expect(adapter.adapter).toMatchObject({ kind: "peft", base: "acme/llama", rank: 8, targetModules: ["q_proj", "v_proj"] });
    expect(adapter.adapter?.modules).toBeUndefined();
    expect(report.issues).toEqual([
      expect.objectContaining({ repo: "acme/halves", registered: true, reason: "its model facts are incomplete: adapter_model.safetensors: model.layers.0.self_attn.v_proj has its LoRA A without its B" }),
    ]);
    s.close();
  });
});

test("the migration has the next refresh read every snapshot's files again: a GGUF adapter once read as a model becomes an adapter", async () => {
  const profile = localProfile("upgraded", base);
  const tiny = makeTinyModels(join(profile.home_dir, "models"));
  const dataDir = join(base, "upgraded-data");
  mkdirSync(dataDir, { recursive: true });
  // The database as it was before adapters: migrations 0000–0002, and the adapter's row as a model with a facts key.
  const before = join(base, "migrations-before");
  cpSync(MIGRATIONS_DIR, before, { recursive: true });
  rmSync(join(before, "0003_adapters.sql"));
  const journal = JSON.parse(readFileSync(join(before, "meta", "_journal.json"), "utf8"));
  writeFileSync(join(before, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.filter((e: { tag: string }) => e.tag !== "0003_adapters") }));
  const old = openDatabase(join(dataDir, "models.sqlite"), schema, before);
  old.$client
    .query("INSERT INTO models (repo, revision, profile, image, model_dir, size_bytes, partial, seen_at, facts, facts_key) VALUES (?, ?, ?, 'text-generation', ?, 1, 0, '2026-01-01T00:00:00.000Z', ?, 'some-key')")
    .run(TINY_LORA_GGUF_REPO, tiny.loraGguf.split("/").at(-1)!, "upgraded", tiny.loraGguf, JSON.stringify({ architecture: "llama", parameters: 3584 }));
  old.$client.close();

  const s = makeServices({ profiles: [profile], dataDir });
  const keys = new Database(join(dataDir, "models.sqlite"), { readonly: true });
  expect(keys.query("SELECT facts_key FROM models").all()).toEqual([{ facts_key: null }]);
  keys.close();
  await s.models.refresh();
  expect(s.models.list({ repo: TINY_LORA_GGUF_REPO })[0].adapter).toMatchObject({ kind: "gguf", base: TINY_TEXT_REPO });
  s.close();
});
