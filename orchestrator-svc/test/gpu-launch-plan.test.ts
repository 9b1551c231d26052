/**
 * `svc run` on a profile whose GPUs are known (issue 29), through planLaunch with a profile-svc fake
 * that reports the cluster's partitions: a CPU partition keeps the CPU runtime exactly as before; a
 * GPU partition gets vLLM on the planned GPUs with its tensor/pipeline sizes and context; the user's
 * --gres wins with a warning; a model without facts or too large for the profile is refused before
 * anything is submitted.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type ClusterGpus, type Model, type ModelFacts, type Profile, type RunRequest } from "@svc/contracts";
import { planLaunch, type PlannerDeps } from "../src/launch/planner";
import { plannerDeps } from "./planner-deps";
import { gpuPartition } from "./gpu-partitions";
import { readFacts, writeSnapshot } from "@svc/testing/real-models";

const root = mkdtempSync(join(tmpdir(), "svc-gpu-plan-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const factsOf = (name: string) => {
  writeSnapshot(name, join(root, name));
  return readFacts(join(root, name));
};
const llama70b = await factsOf("Llama-3.1-70B-Instruct");
const llama405b = await factsOf("Llama-3.1-405B-Instruct");

const cluster: Profile = { name: "hpc", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache", partition: "debug" };
const gpus: ClusterGpus = {
  profile: "hpc",
  source: "slurm",
  partitions: [gpuPartition("debug", "", 0, 0, 1, { default: true, gpuType: null, gpuMemoryBytes: null, gpuMemorySource: "unknown" }), gpuPartition("gpu", "a40", 46068, 4, 2)],
  checkedAt: "2026-01-01T00:00:00.000Z",
};

function deps(facts: ModelFacts | null, clusterGpus: ClusterGpus | null = gpus): PlannerDeps {
  const model: Model = { repo: "meta-llama/Llama-3.1-70B-Instruct", revision: "a".repeat(40), profile: "hpc", image: "text-generation", modelDir: "/models/llama", sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z", ...(facts ? { facts } : {}) };
  return plannerDeps({}, cluster, model, clusterGpus);
}
const run = (extra: Partial<RunRequest>, facts: ModelFacts | null = llama70b, clusterGpus: ClusterGpus | null = gpus) =>
  planLaunch({ task: "text-generation", model: "meta-llama/Llama-3.1-70B-Instruct", ...extra }, deps(facts, clusterGpus), "hpc");
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error) => error as ApiError,
  );
const option = (args: string[], name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

describe("a run on a slurm profile whose GPUs are known", () => {
  test("on the CPU default partition: the CPU runtime, job and arguments as before, no placement", async () => {
    const plan = await run({});
    expect(plan.server).toBe("svc");
    expect(plan.placement).toBeUndefined();
    expect(plan.job).toEqual({ partition: "debug" });
  });

  test("--partition gpu: vLLM on the planned GPUs, tensor parallel and the lowered context passed on", async () => {
    const plan = await run({ job: { partition: "gpu" } });
    expect(plan.server).toBe("vllm");
    expect(plan.job).toEqual({ partition: "gpu", gres: 4 });
    expect(plan.placement).toMatchObject({ partition: "gpu", nodes: 1, gpusPerNode: 4, tensorParallel: 4, pipelineParallel: 1, source: "planned" });
    expect(option(plan.args, "--tensor-parallel-size")).toBe("4");
    expect(plan.args).not.toContain("--pipeline-parallel-size");
    expect(Number(option(plan.args, "--max-model-len"))).toBe(plan.placement!.maxModelLen!);
    expect(plan.placement!.maxModelLen!).toBeLessThan(131072);
  });

  test("a model larger than a node: pipeline parallel over two nodes, --nodes set", async () => {
    const mixtral = await factsOf("Mixtral-8x22B-Instruct-v0.1");
    const plan = await run({ job: { partition: "gpu" } }, mixtral);
    expect(plan.job).toMatchObject({ partition: "gpu", gres: 4, nodes: 2 });
    expect([option(plan.args, "--tensor-parallel-size"), option(plan.args, "--pipeline-parallel-size")]).toEqual(["4", "2"]);
    expect(plan.placement!.summary).toContain("→ 2 nodes × 4 × A40-45GB, tensor parallel 4 × pipeline parallel 2, partition gpu");
  });

  test("--gres without a partition: a GPU launch, the user's GPUs checked, and a warning when they cannot hold the model", async () => {
    const plan = await run({ job: { gres: 1 } });
    expect(plan.server).toBe("vllm");
    // The profile's partition (debug) has no GPUs: the job goes where the GPUs are.
    expect(plan.job).toEqual({ partition: "gpu", gres: 1 });
    expect(plan.placement!.source).toBe("user");
    expect(plan.warnings.join("\n")).toContain("Your placement likely cannot hold the model");
    expect(plan.args).not.toContain("--tensor-parallel-size");
  });

  test("engine arguments given win: the plan adds no second --tensor-parallel-size or --max-model-len", async () => {
    const plan = await run({ job: { partition: "gpu", gres: 4 }, engineArgs: ["--tensor-parallel-size=4", "--max-model-len", "8192"] });
    expect(plan.placement).toMatchObject({ tensorParallel: 4, maxModelLen: 8192, source: "user" });
    expect(plan.args.filter((arg) => arg.startsWith("--tensor-parallel-size"))).toEqual(["--tensor-parallel-size=4"]);
    expect(plan.args.filter((arg) => arg === "--max-model-len")).toHaveLength(1);
  });

  test("a model too large for every partition is refused before submitting, with both numbers", async () => {
    const error = await refusal(run({ job: { partition: "gpu" } }, llama405b));
    expect(error.status).toBe(400);
    expect(error.message).toContain("needs 814 GB");
    expect(error.message).toContain("2 nodes × 4 × A40-45GB in partition gpu, offers");
    expect((error.details as { neededBytes: number }).neededBytes).toBeGreaterThan((error.details as { offeredBytes: number }).offeredBytes);
  });

  test("a model whose files were not read: refused on a GPU partition with what to give; with --gres it runs, unsized", async () => {
    const error = await refusal(run({ job: { partition: "gpu" } }, null));
    expect(error.status).toBe(400);
    expect(error.message).toContain("Give --gres N");
    const plan = await run({ job: { partition: "gpu", gres: 2 }, textGeneration: { sharded: "true" } }, null);
    expect(plan.placement).toMatchObject({ source: "user", nodes: 1, gpusPerNode: 2, tensorParallel: 2, summary: "1 × 2 GPUs as asked (--nodes 1 --gres 2): tensor parallel 2" });
    expect(plan.warnings.join("\n")).toContain("svc cannot size meta-llama/Llama-3.1-70B-Instruct for GPUs");
    expect(option(plan.args, "--tensor-parallel-size")).toBe("2");
  });

  test("GPUs the profile cannot report: --gres --sharded true works as before", async () => {
    const plan = await run({ job: { gres: 2 }, textGeneration: { sharded: "true" } }, llama70b, null);
    expect(plan.server).toBe("vllm");
    expect(option(plan.args, "--tensor-parallel-size")).toBe("2");
    expect(plan.placement).toMatchObject({ source: "user", gpusPerNode: 2, tensorParallel: 2 });
  });
});

/** `svc run --dry-run` shows plan.args: a vLLM or SGLang launch gets the tool-call parser of the model's family (issue 30). */
const qwen = await factsOf("Qwen2.5-7B-Instruct");
const gemma = await factsOf("gemma-2-27b-it");

describe("tool calling options of a GPU launch", () => {
  test("vLLM with a Llama 3 model: --enable-auto-tool-choice --tool-call-parser llama3_json", async () => {
    const plan = await run({ job: { partition: "gpu" } });
    expect(plan.server).toBe("vllm");
    expect(plan.args.join(" ")).toContain("--enable-auto-tool-choice --tool-call-parser llama3_json");
    expect(plan.warnings.join("\n")).not.toContain("tool-call parser");
  });

  test("SGLang with a Qwen 2.5 model: --tool-call-parser qwen25; vLLM: hermes", async () => {
    const sglang = await run({ job: { partition: "gpu" }, engine: "sglang" }, qwen);
    expect(sglang.server).toBe("sglang");
    expect(option(sglang.args, "--tool-call-parser")).toBe("qwen25");
    expect(sglang.args).not.toContain("--enable-auto-tool-choice");
    expect(option((await run({ job: { partition: "gpu" } }, qwen)).args, "--tool-call-parser")).toBe("hermes");
  });

  test("the user's engine arguments win; a family without a known parser gets none and a warning", async () => {
    const own = await run({ job: { partition: "gpu" }, engineArgs: ["--tool-call-parser", "pythonic", "--enable-auto-tool-choice"] });
    expect(own.args.filter((arg) => arg === "--tool-call-parser")).toHaveLength(1);
    expect(option(own.args, "--tool-call-parser")).toBe("pythonic");
    const plain = await run({ job: { partition: "gpu" } }, gemma);
    expect(plain.args).not.toContain("--tool-call-parser");
    expect(plain.warnings).toContain(
      "svc knows no vLLM tool-call parser for model type gemma2: requests with tools are not answered with tool_calls. Give one in the engine arguments (--tool-call-parser NAME) if the model has one.",
    );
  });
});
