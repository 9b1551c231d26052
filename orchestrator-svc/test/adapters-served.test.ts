/**
 * `svc run BASE --adapter NAME` (issue 42): each adapter is looked up in the registry of the run's
 * profile and checked against the base before anything starts; the plan mounts its snapshot and
 * gives the engine its adapter options (svc's runtime `--lora`, vLLM `--lora-modules`, SGLang
 * `--lora-paths`). Each refusal is a 4xx naming the `adapters` field.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiError, ClusterGpus, Model, ModelFacts, Profile, RunRequest } from "@svc/contracts";
import { planLaunch } from "../src/launch/planner";
import { plannerDeps } from "./planner-deps";
import { GPUS } from "./gpu-partitions";

const home = mkdtempSync(join(tmpdir(), "svc-adapters-served-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };

/** A snapshot folder `models--<owner>--<name>/snapshots/<rev>` with `files` in it. */
function snapshot(repo: string, files: string[]): string {
  const dir = join(home, `models--${repo.replace("/", "--")}`, "snapshots", "a".repeat(40));
  mkdirSync(dir, { recursive: true });
  for (const file of files) writeFileSync(join(dir, file), "x");
  return dir;
}
const row = (repo: string, files: string[], extra: Partial<Model>): Model => ({
  repo,
  revision: "a".repeat(40),
  profile: "default",
  image: "text-generation",
  modelDir: snapshot(repo, files),
  sizeBytes: 1,
  partial: false,
  seenAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const sizes: ModelFacts = { architecture: "llama", hiddenSize: 64, attentionHeads: 4, kvHeads: 2, headDim: 16, intermediateSize: 128, layers: 2, vocabSize: 512 };
const module = (name: string, inFeatures: number, outFeatures: number, rank = 8) => ({ name, inFeatures, outFeatures, rank, layers: 2 });

const ggufBase = row("svc-tiny/tiny-llama-gguf", ["tiny.gguf"], { facts: { ...sizes, weightFormat: "gguf" } });
const ggufLora = row("svc-tiny/tiny-llama-lora-gguf", ["lora.gguf"], {
  facts: { architecture: "llama" },
  adapter: { kind: "gguf", file: "lora.gguf", base: "svc-tiny/tiny-llama-gguf", rank: 8, modules: [module("attn_q", 64, 64)], layers: 2 },
});
const otherLora = row("acme/wide-lora", ["lora.gguf"], { facts: { architecture: "llama" }, adapter: { kind: "gguf", file: "lora.gguf", rank: 8, modules: [module("attn_q", 4096, 4096)], layers: 2 } });
const missingLora = row("acme/missing-lora", [], { facts: { architecture: "llama" }, adapter: { kind: "gguf", file: "lora.gguf", rank: 8 } });
const stBase = row("svc-tiny/tiny-llama-safetensors", ["model.safetensors", "config.json"], { facts: { ...sizes, weightFormat: "safetensors" } });
const peftLora = row("svc-tiny/tiny-llama-lora-peft", ["adapter_model.safetensors", "adapter_config.json"], {
  adapter: { kind: "peft", file: "adapter_model.safetensors", base: "svc-tiny/tiny-llama-safetensors", rank: 8, modules: [module("self_attn.q_proj", 64, 64)], layers: 2 },
});
const bigRank = row("acme/rank-1024", ["adapter_model.safetensors"], { adapter: { kind: "peft", file: "adapter_model.safetensors", rank: 1024 } });
const rows = [ggufBase, ggufLora, otherLora, missingLora, stBase, peftLora, bigRank];

const deps = () => ({ ...plannerDeps({}, local, ggufBase), models: async (_profile: string, repo?: string) => rows.filter((each) => repo === undefined || each.repo === repo) });
const plan = (model: Model, adapters: string[], extra: Partial<RunRequest> = {}) => planLaunch({ task: "text-generation", model: model.repo, adapters, ...extra }, deps(), "default");
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error) => error as ApiError,
  );
const gpu = { job: { gres: 1 } };

describe("adapters on the CPU runtime", () => {
  test("a GGUF adapter of the base: --lora NAME=FILE before the engine args, and the models' folder mounted read-only at the same path", async () => {
    const launch = await plan(ggufBase, [ggufLora.repo], { engineArgs: ["--threads", "1"] });
    expect(launch.server).toBe("svc");
    expect(launch.args).toEqual(["--lora", `${ggufLora.repo}=${join(ggufLora.modelDir, "lora.gguf")}`, "--threads", "1"]);
    // The folder holding every snapshot folder: adapters there can be added while it runs.
    expect(launch.mounts).toEqual([{ source: home, target: home }]);
    expect(launch.adapters.map((adapter) => adapter.name)).toEqual([ggufLora.repo]);
  });

  test("refused before anything starts: a PEFT adapter, another base's, missing weights, unknown, a model, the model itself, twice", async () => {
    const cases: [string[], number, string][] = [
      [[peftLora.repo], 400, "the CPU runtime serves GGUF LoRA adapters; convert with llama.cpp's convert_lora_to_gguf.py or run on vLLM/SGLang"],
      [[otherLora.repo], 400, "attn_q is 4096→4096 in acme/wide-lora, 64→64 in svc-tiny/tiny-llama-gguf"],
      [[missingLora.repo], 400, "its weights are missing"],
      [["acme/nowhere"], 404, "is not in the registry of profile default"],
      [[stBase.repo], 400, "is a model, not a LoRA adapter"],
      [[ggufBase.repo], 400, "that is the model itself"],
      [[ggufLora.repo, ggufLora.repo], 400, "given twice"],
    ];
    for (const [adapters, status, message] of cases) {
      const error = await refusal(plan(ggufBase, adapters));
      expect({ status: error.status, field: (error.details as { field?: string })?.field }).toEqual({ status, field: "adapters" });
      expect(error.message).toContain(message);
    }
  });

  test("speech recognition takes no adapters", async () => {
    const error = await refusal(planLaunch({ task: "speech-recognition", model: ggufBase.repo, adapters: [ggufLora.repo] }, { ...deps(), models: async () => [{ ...ggufBase, image: "speech-recognition" }] }, "default"));
    expect(error.message).toContain("--adapter applies to text-generation only");
  });
});

describe("adapters on the GPU engines", () => {
  test("vLLM: --enable-lora --lora-modules NAME=FOLDER --max-lora-rank (its next allowed value) --max-loras", async () => {
    const launch = await plan(stBase, [peftLora.repo], gpu);
    expect(launch.server).toBe("vllm");
    const at = launch.args.indexOf("--enable-lora");
    expect(launch.args.slice(at)).toEqual(["--enable-lora", "--lora-modules", `${peftLora.repo}=${peftLora.modelDir}`, "--max-lora-rank", "8", "--max-loras", "1"]);
  });

  test("SGLang: --enable-lora --lora-paths NAME=FOLDER --max-lora-rank", async () => {
    const launch = await plan(stBase, [peftLora.repo], { ...gpu, engine: "sglang" });
    const at = launch.args.indexOf("--enable-lora");
    expect(launch.args.slice(at)).toEqual(["--enable-lora", "--lora-paths", `${peftLora.repo}=${peftLora.modelDir}`, "--max-lora-rank", "8"]);
  });

  test("refused: a GGUF adapter, a rank above the engine's or the --max-lora-rank given, --lora-modules given by hand", async () => {
    expect((await refusal(plan(stBase, [ggufLora.repo], gpu))).message).toContain("vLLM applies PEFT adapters");
    expect((await refusal(plan(stBase, [bigRank.repo], gpu))).message).toContain("rank 1024; vLLM serves LoRA ranks up to 512");
    expect((await refusal(plan(stBase, [peftLora.repo], { ...gpu, engineArgs: ["--max-lora-rank", "4"] }))).message).toContain("above the --max-lora-rank 4");
    expect((await refusal(plan(stBase, [peftLora.repo], { ...gpu, engineArgs: ["--lora-modules", "x=/y"] }))).message).toContain("svc sets it from --adapter");
  });
});

test("a sized GPU launch adds the adapters' memory (A and B × rank × layers in 16 bits) to the plan and its summary", async () => {
  const gpus: ClusterGpus = { profile: "default", source: "slurm", partitions: [GPUS[80]], checkedAt: "2026-01-01T00:00:00.000Z" };
  const sized = { ...stBase, facts: { ...stBase.facts, weightBytes: 16e9, layers: 32, contextLength: 8192, dtype: "bfloat16" } };
  const deps = { ...plannerDeps({}, local, sized, gpus), models: async (_profile: string, repo?: string) => [sized, peftLora].filter((each) => repo === undefined || each.repo === repo) };
  const launch = await planLaunch({ task: "text-generation", model: sized.repo, adapters: [peftLora.repo], job: { gres: 1 } }, deps, "default");
  // self_attn.q_proj 64→64, rank 8, 2 layers: (64 + 64) × 8 × 2 × 2 bytes.
  expect(launch.placement!.memory.adapterBytes).toBe(4096);
  expect(launch.placement!.memory.weightBytes).toBe(16e9);
  expect(launch.placement!.summary).toStartWith("16 GB bf16 weights + 4.10 kB LoRA adapters + ");
  const without = await planLaunch({ task: "text-generation", model: sized.repo, job: { gres: 1 } }, deps, "default");
  expect(without.placement!.memory.adapterBytes).toBeUndefined();
  expect(without.placement!.summary).not.toContain("LoRA");
});
