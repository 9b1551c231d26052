/**
 * A model larger than one node, on the Slurm test cluster's two GPU nodes (partition `gpu`: gpu-a and
 * gpu-b, four a100 each), end to end: the real app and CLI, the model's facts and the profile's GPUs
 * (svc plans 2 nodes, tensor parallel 4 × pipeline parallel 2), `sbatch --nodes 2`, and the image's
 * stand-in vLLM, SGLang and Ray (images/slurm-test/gpu-stand-ins), which check their arguments
 * against the option lists svc pins and their group (world size = tensor × pipeline = GPUs per node
 * × nodes, node ranks, the head's address reached from the other node) before the head serves the
 * OpenAI API through the svc CPU runtime. The model is Qwen2.5-72B-Instruct's real config.json and
 * safetensors shards of the true size (sparse: headers only), plus the tiny GGUF the runtime serves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { eventually, GPU_TEST_NODES, runSvc, type ClusterApp, type SshTestHost } from "@svc/testing";
import { serviceReaches, startGpuClusterWithRealModel } from "@svc/testing/cluster-real-model";

const PROFILE = "cluster";
const MODEL = "svc-test/Qwen2.5-72B-Instruct";
const KEY = "sk-two-nodes";
/** Only the partition is given (the default one, `debug`, has no GPUs): svc plans the placement from the model's facts and the partition's GPUs. */
const PARTITION = ["--partition", GPU_TEST_NODES.partition];
/** The plan for the model on 2 nodes × 4 A100 (40 GB, the GPU table's assumption for `a100`), for either engine. */
const PLAN = "145 GB bf16 weights + 21 GB KV (2 × 32,768 tokens) → 2 nodes × 4 × A100-40GB, tensor parallel 4 × pipeline parallel 2, partition gpu";

let started: ClusterApp;
let cluster: SshTestHost;
let client: SvcClient;
let env: Record<string, string>;

const run = (args: string[]) => runSvc(args, env);
const reaches = (id: string, wanted: ServiceStatus) => serviceReaches(started, id, wanted);
const asRoot = async (command: string) => {
  const result = await cluster.container.exec(["sh", "-c", command]);
  if (result.exitCode !== 0) throw new Error(`${command} failed (${result.exitCode}): ${result.output}`);
  return result.output;
};
const jobOf = async (id: string) => (await client.services.get(id)).handle!.split(":")[0];
/** The processes the stand-ins and the runtime leave on the nodes (all in the one container). */
const leftOver = async () => (await asRoot("ps -u svc -o args= | grep -E 'ray start|vllm|sglang|text-generation/src/main' | grep -v grep || true")).trim();

beforeAll(async () => {
  started = await startGpuClusterWithRealModel(PROFILE, "Qwen2.5-72B-Instruct", MODEL);
  ({ cluster, client, env } = started);
}, 300_000);

afterAll(async () => {
  await started?.cleanup();
});

const ENGINES = [
  { engine: "vllm", joined: "head: node gpu-b", killed: "ray-worker", part: "its Ray worker" },
  { engine: "sglang", joined: "rank 1 on gpu-b joined", killed: "sglang-rank1", part: "its SGLang rank" },
] as const;

describe("a model larger than one node, on both GPU nodes", () => {
  test("the model's facts come from its safetensors headers, beside the GGUF the stand-ins serve; its plan needs both GPU nodes", async () => {
    const model = (await client.models.list({ profile: PROFILE })).find((each) => each.repo === MODEL);
    expect(model?.facts?.weightBytes).toBe(145412407296);
    expect(model?.facts?.architecture).toBe("Qwen2ForCausalLM");
    expect(model?.facts?.files?.some((file) => file.endsWith(".gguf"))).toBe(false);
    for (const engine of ["vllm", "sglang"]) {
      const dry = await run(["run", "-p", PROFILE, ...PARTITION, "--engine", engine, "text-generation", MODEL, "--dry-run"]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stderr).toContain(`Plan: ${PLAN}`);
      expect(dry.stdout).toContain("\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:4\n");
    }
  });

  for (const { engine, joined, killed, part } of ENGINES) {
    test(`${engine}: HEALTHY once both nodes joined, a chat through /v1, stopped with no job or process left; gpu-b's part killed fails it naming gpu-b`, async () => {
      const runIt = async () => {
        const result = await run(["run", "-p", PROFILE, ...PARTITION, "--engine", engine, "--api-key", KEY, "text-generation", MODEL]);
        expect(result.code, result.stderr).toBe(0);
        return result.stdout.trim();
      };
      const id = await runIt();
      await reaches(id, "HEALTHY");
      const jobId = await jobOf(id);
      expect((await asRoot(`squeue -h -j ${jobId} -o '%T %N'`)).trim()).toBe("RUNNING gpu-a,gpu-b");
      const logs = (await run(["logs", id])).stdout;
      expect(logs).toContain(joined);
      expect(logs).toContain(`serving ${MODEL} on http://127.0.0.1:`);

      // The key reached the head's server as this engine takes it: asked without it, the service refuses.
      const { url } = await client.services.get(id);
      expect((await fetch(`${url}/v1/models`)).status).toBe(401);
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
      const answer = await new OpenAI({ baseURL: `${started.app.url}/v1`, apiKey: "unused", maxRetries: 0 }).chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 4 });
      expect(answer.model).toBe(MODEL);
      expect(answer.usage!.completion_tokens).toBeGreaterThan(0);

      expect((await run(["stop", id])).code).toBe(0);
      await reaches(id, "STOPPED");
      await eventually(async () => (await asRoot(`squeue -h -j ${jobId} -o %T`)).trim() === "", 30_000, `job ${jobId} to leave the queue`);
      await eventually(async () => (await leftOver()) === "", 30_000, "the group's processes to end");

      const second = await runIt();
      await reaches(second, "HEALTHY");
      const secondJob = await jobOf(second);
      await asRoot(`kill -9 "$(cat /tmp/svc-stand-ins/${secondJob}.gpu-b.${killed}.pid)"`);
      await reaches(second, "FAILED");
      expect((await client.services.get(second)).reason).toStartWith(`node gpu-b lost: ${part} ended (exit 137)`);
      await eventually(async () => (await asRoot(`squeue -h -j ${secondJob} -o %T`)).trim() === "", 30_000, `job ${secondJob} to leave the queue`);
      await eventually(async () => (await leftOver()) === "", 30_000, "the group's processes to end");
    }, 300_000);
  }
});
