/**
 * `bun orchestrator-svc/bench/gpu-memory/plans.ts OUT.json [GPU memory in MiB]`: svc's launch plan for real models on one
 * GPU of the given size (default an H100's 81,559 MiB), from each model's real config.json and
 * safetensors headers of the true size (sparse files, as the sizing tests write them), written as the
 * input of measure.py, which measures the same plan on a real GPU: weights, the KV cache of the planned
 * context, and what the engine's overhead stands for. Only models whose plan is one GPU are kept.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planPlacement } from "../../src/launch/sizing/plan";
import { gpuPartition } from "../../test/gpu-partitions";
import { CONFIGS, readFacts, writeSnapshot } from "@svc/testing/real-models";

const MODELS = ["Llama-3.2-1B-Instruct", "Llama-3.1-8B", "Qwen2.5-7B-Instruct", "Mistral-7B-Instruct-v0.3", "Qwen2.5-14B-Instruct", "Qwen3-30B-A3B"];

const [out, memory = "81559"] = process.argv.slice(2);
if (!out) throw new Error("usage: bun orchestrator-svc/bench/gpu-memory/plans.ts OUT.json [GPU memory in MiB]");
const partition = gpuPartition("one-gpu", "gpu", Number(memory), 1, 1);
const root = mkdtempSync(join(tmpdir(), "svc-gpu-memory-"));
try {
  const entries = [];
  for (const name of MODELS) {
    const dir = join(root, name);
    writeSnapshot(name, dir);
    const outcome = planPlacement({ facts: await readFacts(dir), partitions: [partition], engine: "vllm", given: {} });
    if (outcome.kind !== "placed") {
      console.log(`${name}: ${outcome.kind === "refused" ? outcome.message : outcome.reason}`);
      continue;
    }
    const { placement } = outcome;
    console.log(`${name}: ${placement.summary}`);
    const config = JSON.parse(readFileSync(join(CONFIGS, name, "config.json"), "utf8"));
    entries.push({ name, config, plan: { maxModelLen: placement.maxModelLen, concurrency: placement.concurrency, ...placement.memory } });
  }
  writeFileSync(out, JSON.stringify(entries, null, 1));
} finally {
  rmSync(root, { recursive: true, force: true });
}
