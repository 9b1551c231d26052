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
import { ServiceStore, type NewServiceRow } from "../src/db/service-store";
import { addAdapter, removeAdapter } from "../src/services/adapter-changes";
import { DeploymentStore } from "../src/db/deployment-store";
import { changeDeploymentAdapter } from "../src/deployments/adapters";
import { readDeploymentSpec, toDeploymentRecord } from "../src/deployments/records";
import { readSpec, toServiceRecord } from "../src/services/records";
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
      [["bad name; rm -rf /"], 400, "name an adapter by its repo id"],
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

describe("svc adapter add|rm on a running service", () => {
  const calls: { path: string; body: Record<string, string>; authorization: string | null }[] = [];
  const runtime = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      calls.push({ path: new URL(request.url).pathname, body: (await request.json()) as Record<string, string>, authorization: request.headers.get("authorization") });
      return Response.json({ ok: true });
    },
  });
  afterAll(() => runtime.stop(true));
  const store = new ServiceStore(join(home, "services.db"));
  const changes = { store, planner: deps() };
  const now = new Date().toISOString();
  const launchArgs = (adapters: string[]) => [...adapters.flatMap((name) => ["--lora", `${name}=${join(ggufLora.modelDir, "lora.gguf")}`]), "--threads", "1"];
  const insert = (id: string, extra: Partial<NewServiceRow> = {}, args = launchArgs([]), adapters: object[] = []) => {
    store.insert(
      {
        id, name: `svc-${id.slice(0, 4)}`, task: "text-generation", model: ggufBase.repo, revision: ggufBase.revision, profile: "default", status: "HEALTHY", reason: null,
        host: "127.0.0.1", port: runtime.port!, engine: "docker", runtime: "svc-text-generation:x", handle: "c1", apiKey: "own-key", createdBy: "test", createdAt: now, updatedAt: now,
        spec: JSON.stringify({ job: {}, engineArgs: ["--threads", "1"], launch: { args, modelDir: ggufBase.modelDir, mounts: [{ source: home, target: home }], adapters } }),
        ...extra,
      },
      null,
    );
    return store.get(id)!;
  };

  test("add loads it through the runtime with the service's key, then the record serves it (and would start with it); rm unloads it", async () => {
    const row = insert("aaaa0000-0000-4000-8000-000000000001");
    const added = await addAdapter(changes, row, ggufLora.repo);
    expect(calls.at(-1)).toEqual({ path: "/v1/load_lora_adapter", body: { lora_name: ggufLora.repo, lora_path: join(ggufLora.modelDir, "lora.gguf") }, authorization: "Bearer own-key" });
    expect(toServiceRecord(added).adapters).toEqual([ggufLora.repo]);
    expect(readSpec(added).launch.args).toEqual(launchArgs([ggufLora.repo]));
    expect(store.events(row.id).at(-1)!.reason).toBe(`LoRA adapter ${ggufLora.repo} added; served without a restart`);

    const removed = await removeAdapter(changes, added, ggufLora.repo);
    expect(calls.at(-1)).toMatchObject({ path: "/v1/unload_lora_adapter", body: { lora_name: ggufLora.repo } });
    expect(toServiceRecord(removed).adapters).toBeUndefined();
    expect(readSpec(removed).launch.args).toEqual(launchArgs([]));
  });

  test("vLLM: removing its last adapter keeps LoRA enabled at the rank it was started with, so one can be added again (now, and after a restart)", async () => {
    const pair = `${peftLora.repo}=${peftLora.modelDir}`;
    const started = ["--served-model-name", stBase.repo, "--enable-lora", "--lora-modules", pair, "--max-lora-rank", "8", "--max-loras", "1", "--threads", "1"];
    const row = insert("cccc0000-0000-4000-8000-000000000001", { model: stBase.repo, revision: stBase.revision, runtime: "vllm/vllm-openai:v0.11.1" }, started, [{ name: peftLora.repo, path: peftLora.modelDir, rank: 8 }]);
    const removed = await removeAdapter(changes, row, peftLora.repo);
    expect(calls.at(-1)).toMatchObject({ path: "/v1/unload_lora_adapter", body: { lora_name: peftLora.repo } });
    expect(readSpec(removed).launch.args).toEqual(["--served-model-name", stBase.repo, "--enable-lora", "--max-lora-rank", "8", "--max-loras", "1", "--threads", "1"]);
    const added = await addAdapter(changes, removed, peftLora.repo);
    expect(calls.at(-1)).toEqual({ path: "/v1/load_lora_adapter", body: { lora_name: peftLora.repo, lora_path: peftLora.modelDir }, authorization: "Bearer own-key" });
    expect(readSpec(added).launch.args).toEqual(started);
  });

  test("a deployment: every replica loads it (a stopped one from its next start), and so does the template of replicas to come; one event", async () => {
    const deployments = new DeploymentStore(join(home, "services.db"));
    const deploymentId = "eeee0000-0000-4000-8000-000000000001";
    const spec = { job: {}, engineArgs: ["--threads", "1"], launch: { args: ["--threads", "1"], modelDir: ggufBase.modelDir, mounts: [{ source: home, target: home }] } };
    deployments.insert(
      {
        id: deploymentId, name: "chat", task: "text-generation", model: ggufBase.repo, revision: ggufBase.revision, profile: "default", engine: "docker", status: "ACTIVE",
        min: 0, max: 2, targetInflight: 4, scaleUpAfterSeconds: 30, scaleDownAfterSeconds: 600, routing: "least-busy", createdBy: "test", createdAt: now, updatedAt: now,
        spec: JSON.stringify({ template: { name: "chat-1", task: "text-generation", model: ggufBase.repo, revision: ggufBase.revision, profile: "default", engine: "docker", runtime: "svc-text-generation:x", apiKey: "own-key", spec } }),
      } as never,
      { from: 0, to: 0, message: "created" },
    );
    const healthy = insert("ffff0000-0000-4000-8000-000000000001", { deploymentId });
    const stopped = insert("ffff0000-0000-4000-8000-000000000002", { deploymentId, status: "STOPPED", host: null, port: null });
    expect((await refusal(addAdapter(changes, healthy, ggufLora.repo))).message).toContain("is a replica of deployment");
    const before = calls.length;
    await changeDeploymentAdapter({ store: deployments, changes }, deployments.get(deploymentId)!, [healthy, stopped], ggufLora.repo, true);
    expect(calls.length).toBe(before + 1);
    expect(toServiceRecord(store.get(healthy.id)!).adapters).toEqual([ggufLora.repo]);
    expect(toServiceRecord(store.get(stopped.id)!).adapters).toEqual([ggufLora.repo]);
    expect(store.events(stopped.id).at(-1)!.reason).toBe(`LoRA adapter ${ggufLora.repo} added: served from the next start`);
    const row = deployments.get(deploymentId)!;
    expect(readDeploymentSpec(row).template.spec.launch.args).toEqual(launchArgs([ggufLora.repo]));
    expect(toDeploymentRecord(row, [], { of: () => 0 } as never).adapters).toEqual([ggufLora.repo]);
    expect(deployments.events(deploymentId).at(-1)!.message).toBe(`LoRA adapter ${ggufLora.repo} added: served by every replica, without a restart`);

    await changeDeploymentAdapter({ store: deployments, changes }, deployments.get(deploymentId)!, [store.get(healthy.id)!, store.get(stopped.id)!], ggufLora.repo, false);
    expect(calls.at(-1)).toMatchObject({ path: "/v1/unload_lora_adapter" });
    expect(toDeploymentRecord(deployments.get(deploymentId)!, [], { of: () => 0 } as never).adapters).toBeUndefined();
    const starting = insert("ffff0000-0000-4000-8000-000000000003", { deploymentId, status: "STARTING" });
    expect((await refusal(changeDeploymentAdapter({ store: deployments, changes }, deployments.get(deploymentId)!, [starting], ggufLora.repo, true))).message).toContain("on their way up or down");
  });

  test("refused: served already, not HEALTHY, a replica, another base's adapter, one it does not serve; vLLM without LoRA or above its rank", async () => {
    const served = [{ name: ggufLora.repo, path: join(ggufLora.modelDir, "lora.gguf"), rank: 8 }];
    const before = calls.length;
    const cases: [ReturnType<typeof insert>, () => Promise<unknown>, number, string][] = [];
    const serving = insert("bbbb0000-0000-4000-8000-000000000001", {}, launchArgs([ggufLora.repo]), served);
    cases.push([serving, () => addAdapter(changes, serving, ggufLora.repo), 409, "serves svc-tiny/tiny-llama-lora-gguf already"]);
    const starting = insert("bbbb0000-0000-4000-8000-000000000002", { status: "STARTING" });
    cases.push([starting, () => addAdapter(changes, starting, ggufLora.repo), 409, "is STARTING: only a HEALTHY (or a stopped) service"]);
    const replica = insert("bbbb0000-0000-4000-8000-000000000003", { deploymentId: "dddd0000-0000-4000-8000-000000000001" });
    cases.push([replica, () => addAdapter(changes, replica, ggufLora.repo), 409, "is a replica of deployment"]);
    const plain = insert("bbbb0000-0000-4000-8000-000000000004");
    cases.push([plain, () => addAdapter(changes, plain, otherLora.repo), 400, "does not fit"]);
    cases.push([plain, () => removeAdapter(changes, plain, ggufLora.repo), 404, "does not serve svc-tiny/tiny-llama-lora-gguf"]);
    const vllm = insert("bbbb0000-0000-4000-8000-000000000005", { model: stBase.repo, revision: stBase.revision, runtime: "vllm/vllm-openai:v0.11.1" }, ["--served-model-name", stBase.repo, "--threads", "1"]);
    cases.push([vllm, () => addAdapter(changes, vllm, peftLora.repo), 409, "was started without LoRA adapters"]);
    const lowRank = insert("bbbb0000-0000-4000-8000-000000000006", { model: stBase.repo, revision: stBase.revision, runtime: "vllm/vllm-openai:v0.11.1" }, ["--enable-lora", "--max-lora-rank", "1", "--threads", "1"]);
    cases.push([lowRank, () => addAdapter(changes, lowRank, peftLora.repo), 400, "above the --max-lora-rank 1"]);
    for (const [, attempt, status, message] of cases) {
      const error = await refusal(attempt());
      expect({ status: error.status, message: error.message.includes(message) ? message : error.message }).toEqual({ status, message });
    }
    expect(calls.length).toBe(before);
  });
});
