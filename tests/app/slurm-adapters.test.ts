/**
 * A LoRA adapter served on a base on the Slurm test cluster (issue 42, part 2), through the stand-in
 * vLLM of its GPU nodes: `svc run … --gres 1 --adapter` submits a job whose vLLM gets
 * `--enable-lora --lora-modules NAME=FOLDER --max-lora-rank --max-loras` and
 * VLLM_ALLOW_RUNTIME_LORA_UPDATING; the stand-in checks each adapter's folder on the node and lists
 * the adapter in its /v1/models; /v1 routes the adapter's name to the service; `svc adapter rm|add`
 * unload and load it in place. SGLang's options are checked by a dry run.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { clusterFiles, eventually, GPU_TEST_NODES, LORA_PEFT, runSvc, SAFETENSORS_MODEL, startAppWithCluster, type ClusterApp } from "@svc/testing";

const PROFILE = "cluster";
const TINY_GGUF = "/shared/cache/models/models--svc-tiny--tiny-llama-gguf/snapshots/*/tiny-llama-f32.gguf";
const GPU = ["run", "-p", PROFILE, "--partition", GPU_TEST_NODES.partition, "--gres", "1"];

let started: ClusterApp;
let client: SvcClient;
let env: Record<string, string>;
const run = (args: string[]) => runSvc(args, env);
const onCluster = (command: string) => clusterFiles(started.cluster).onCluster(command);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE, { gpuNodes: true });
  ({ client, env } = started);
  // The stand-ins serve the model folder's GGUF through the svc runtime: the tiny llama's, beside its safetensors.
  const copied = await started.cluster.container.exec(["sh", "-c", `for d in /shared/cache/models/models--svc-tiny--tiny-llama-safetensors/snapshots/*; do cp -L ${TINY_GGUF} "$d"/; done`]);
  if (copied.exitCode !== 0) throw new Error(`copying the tiny GGUF failed: ${copied.output}`);
  await client.models.refresh(PROFILE);
  const install = await run(["runtime", "install", "-p", PROFILE]);
  if (install.code !== 0) throw new Error(`svc runtime install failed:\n${install.stderr}`);
}, 600_000);

afterAll(async () => {
  await started?.cleanup();
});

test("dry runs: vLLM's and SGLang's adapter options in the job script, the adapters' memory in the plan", async () => {
  for (const [engine, options] of [["vllm", "--enable-lora --lora-modules"], ["sglang", "--enable-lora --lora-paths"]] as const) {
    const dry = await run([...GPU, "--engine", engine, "text-generation", SAFETENSORS_MODEL, "--adapter", LORA_PEFT, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`${options} ${LORA_PEFT}=/shared/cache/models/models--svc-tiny--tiny-llama-lora-peft/snapshots/`);
    expect(dry.stdout).toContain("--max-lora-rank 8");
    expect(dry.stderr).toMatch(/Plan: .* weights \+ [\d.]+ kB LoRA adapters \+ /);
  }
});

test("vLLM on a GPU node serves the base and the adapter; the adapter is unloaded and loaded again in place", async () => {
  const result = await run([...GPU, "text-generation", SAFETENSORS_MODEL, "--adapter", LORA_PEFT]);
  expect(result.code, result.stderr).toBe(0);
  const id = result.stdout.trim();
  await eventually(
    async () => {
      const { status, reason } = await client.services.get(id);
      if (["FAILED", "STOPPED"].includes(status)) throw new Error(`${id} is ${status}: ${reason}\n${(await run(["logs", id])).stdout.slice(-3000)}`);
      return status === "HEALTHY";
    },
    180_000,
    `${id} to be HEALTHY`,
  );
  const logs = (await run(["logs", id])).stdout;
  expect(logs).toContain(`LoRA adapters (rank up to 8): ${LORA_PEFT} (/shared/cache/models/models--svc-tiny--tiny-llama-lora-peft/snapshots/`);
  const chat = (model: string) =>
    fetch(`${started.app.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 4 }) });
  const adapted = await chat(LORA_PEFT);
  expect(adapted.status).toBe(200);
  expect(adapted.headers.get("x-svc-service")).toBe(id);
  expect(((await adapted.json()) as { model: string }).model).toBe(LORA_PEFT);

  const removed = await run(["adapter", "rm", id, LORA_PEFT]);
  expect(removed.code, removed.stderr).toBe(0);
  expect((await chat(LORA_PEFT)).status).toBe(404);
  const added = await run(["adapter", "add", id, LORA_PEFT]);
  expect(added.code, added.stderr).toBe(0);
  expect((await chat(LORA_PEFT)).status).toBe(200);
  expect((await run(["logs", id])).stdout).toContain(`loaded LoRA adapter ${LORA_PEFT}`);
  expect((await client.services.get(id)).status).toBe("HEALTHY");
});

test("a batch job of the PEFT adapter on a GPU node: vLLM gets the adapter, every request names it, the record says which base", async () => {
  await onCluster(`mkdir -p ~/svc/adapter-batch/texts && for i in 1 2 3; do echo "Document $i: the quick brown fox." > ~/svc/adapter-batch/texts/doc-$i.txt; done`);
  const params = JSON.stringify({ prompt: "Summarise:\n{text}", max_tokens: 4, temperature: 0 });
  const submitted = await run(["batch", "run", "-p", PROFILE, "--partition", GPU_TEST_NODES.partition, "--gres", "1", "chat", LORA_PEFT, "--input-dir", "~/svc/adapter-batch/texts", "--output-dir", "~/svc/adapter-batch/answers", "--params", params, "--idle-timeout", "5"]);
  expect(submitted.code, submitted.stderr).toBe(0);
  const id = submitted.stdout.trim();
  await eventually(
    async () => {
      const batch = await client.batches.get(id);
      if (batch.status === "FAILED") throw new Error(`${id} FAILED: ${batch.reason}`);
      return batch.status === "COMPLETED";
    },
    300_000,
    `${id} to complete`,
  );
  expect(await client.batches.get(id)).toMatchObject({ model: SAFETENSORS_MODEL, adapter: LORA_PEFT, progress: { done: 3, failed: 0 } });
  expect((await onCluster("ls ~/svc/adapter-batch/answers")).split("\n").filter(Boolean).sort()).toEqual(["doc-1.txt", "doc-2.txt", "doc-3.txt"]);
  expect((await onCluster("find ~/svc/adapter-batch/answers -name '*.txt' -size 0 | wc -l")).trim()).toBe("0");
}, 360_000);
