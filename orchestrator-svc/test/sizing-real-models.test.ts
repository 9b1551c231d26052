/**
 * Plans for real models (issue 29): each model's real config.json (tests/support/fixtures/model-configs, see
 * its README) and safetensors shards of the true size written as sparse files, their facts read from
 * the headers, sized on 40/48/80/141 GB GPUs. The expected placements are what people run these
 * models with; each case names its source. vec-inf = VectorInstitute/vector-inference,
 * vec_inf/config/models.yaml (gpus_per_node, num_nodes, --tensor/--pipeline-parallel-size,
 * --max-model-len), whose cluster has 4 A40/L40S 48GB GPUs a node.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelFacts } from "@svc/contracts";
import { planPlacement } from "../src/launch/sizing/plan";
import { GPUS, gpuPartition } from "./gpu-partitions";
import { CONFIGS, readFacts, writeSnapshot } from "@svc/testing/real-models";

const root = mkdtempSync(join(tmpdir(), "svc-sizing-models-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const facts = new Map<string, { facts: ModelFacts; total: number; dir: string }>();
for (const name of readdirSync(CONFIGS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
  const dir = join(root, name);
  const total = writeSnapshot(name, dir);
  facts.set(name, { facts: await readFacts(dir), total, dir });
}
const model = (name: string) => facts.get(name)!;

/** model.safetensors.index.json total_size as the model's Hugging Face repository publishes it. */
const PUBLISHED_TOTAL_SIZE: Record<string, number> = {
  "Llama-3.1-8B": 16060522496,
  "Llama-3.1-70B-Instruct": 141107412992,
  "Llama-3.1-405B-Instruct": 811706777600,
  "Mixtral-8x7B-Instruct-v0.1": 93405585408,
  "Qwen2.5-7B-Instruct": 15231233024,
  "Mistral-7B-Instruct-v0.3": 14496047104,
  "Mistral-7B-v0.1": 14483464192,
  // Qwen/Qwen2-VL-2B's index (the Instruct model has the same tensors); the vision tower's shards included.
  "Qwen2-VL-2B-Instruct": 4417971200,
};

describe("safetensors headers of the true size", () => {
  for (const [name, total] of Object.entries(PUBLISHED_TOTAL_SIZE)) {
    test(`${name}: the headers add up to the published total_size, on sparse files`, () => {
      const { facts: read, total: written, dir } = model(name);
      expect(written).toBe(total);
      expect(read.weightBytes).toBe(total);
      const shard = statSync(join(dir, readdirSync(dir).find((file) => file.endsWith(".safetensors"))!));
      expect(shard.size).toBeGreaterThan(1e9);
      expect(shard.blocks * 512).toBeLessThan(1e6);
    });
  }
});

interface Expected {
  gpus: keyof typeof GPUS;
  nodes: number;
  gpusPerNode: number;
  tp: number;
  pp: number;
  /** The context is lowered, to at least this (a reference's --max-model-len). */
  loweredTo?: number;
  source: string;
}

const CASES: Record<string, Expected[]> = {
  "Llama-3.2-1B-Instruct": [{ gpus: 48, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "vec-inf Llama-3.2-1B-Instruct: gpus_per_node 1" }],
  "Llama-3.1-8B": [
    { gpus: 48, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "vec-inf Meta-Llama-3.1-8B: gpus_per_node 1, full 131,072 context" },
    { gpus: 40, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "16 GB of weights: one A100-40GB, as Meta's and vLLM's quick starts run it" },
  ],
  "Mistral-7B-Instruct-v0.3": [{ gpus: 48, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "vec-inf Mistral-7B-Instruct-v0.3: gpus_per_node 1" }],
  "Qwen2.5-7B-Instruct": [{ gpus: 48, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "vec-inf Qwen2.5-7B-Instruct: gpus_per_node 1" }],
  "Qwen2.5-14B-Instruct": [{ gpus: 48, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "vec-inf Qwen2.5-14B-Instruct: gpus_per_node 1" }],
  "Qwen2.5-32B-Instruct": [{ gpus: 48, nodes: 1, gpusPerNode: 2, tp: 2, pp: 1, source: "vec-inf Qwen2.5-32B-Instruct: gpus_per_node 2, --tensor-parallel-size 2" }],
  "Qwen2.5-72B-Instruct": [{ gpus: 48, nodes: 1, gpusPerNode: 4, tp: 4, pp: 1, source: "vec-inf Qwen2.5-72B-Instruct: gpus_per_node 4, --tensor-parallel-size 4" }],
  "gemma-2-27b-it": [{ gpus: 48, nodes: 1, gpusPerNode: 2, tp: 2, pp: 1, source: "vec-inf gemma-2-27b-it: gpus_per_node 2, --tensor-parallel-size 2" }],
  "Mixtral-8x7B-Instruct-v0.1": [{ gpus: 48, nodes: 1, gpusPerNode: 4, tp: 4, pp: 1, source: "vec-inf Mixtral-8x7B-Instruct-v0.1: gpus_per_node 4, --tensor-parallel-size 4" }],
  "Mixtral-8x22B-Instruct-v0.1": [{ gpus: 48, nodes: 2, gpusPerNode: 4, tp: 4, pp: 2, source: "vec-inf Mixtral-8x22B-Instruct-v0.1: num_nodes 2, gpus_per_node 4, --pipeline-parallel-size 2 --tensor-parallel-size 4" }],
  "Llama-3.1-70B-Instruct": [
    { gpus: 48, nodes: 1, gpusPerNode: 4, tp: 4, pp: 1, loweredTo: 65536, source: "vec-inf Meta-Llama-3.1-70B-Instruct: gpus_per_node 4, --tensor-parallel-size 4, --max-model-len 65536" },
    { gpus: 40, nodes: 1, gpusPerNode: 8, tp: 8, pp: 1, source: "141 GB of weights: the 8 GPUs of a DGX A100 40GB, tensor parallel 8" },
    { gpus: 80, nodes: 1, gpusPerNode: 4, tp: 4, pp: 1, source: "vLLM's performance benchmarks serve Llama 3 70B on 4 × H100 with tensor parallel 4" },
    { gpus: 141, nodes: 1, gpusPerNode: 2, tp: 2, pp: 1, source: "141 GB of weights on two H200 (NVIDIA's H200 launch: Llama 2/3 70B on 2 GPUs)" },
  ],
  "Llama-3.1-405B-Instruct": [
    { gpus: 80, nodes: 2, gpusPerNode: 8, tp: 8, pp: 2, source: "vLLM's distributed-serving guide and Llama 3.1 launch post: 405B in bf16 on two 8 × H100 nodes, tensor parallel 8 × pipeline parallel 2" },
    { gpus: 141, nodes: 1, gpusPerNode: 8, tp: 8, pp: 1, source: "one 8 × H200 node holds 405B in bf16 (1.1 TB of GPU memory), tensor parallel 8" },
    { gpus: 48, nodes: 6, gpusPerNode: 4, tp: 4, pp: 6, source: "vec-inf Meta-Llama-3.1-405B-Instruct runs 8 nodes × 4 (pipeline parallel 8) with --max-model-len 16384; 6 nodes already hold the weights and the whole context" },
  ],
  "Llama-3.1-405B-Instruct-FP8": [{ gpus: 80, nodes: 1, gpusPerNode: 8, tp: 8, pp: 1, source: "Meta's Llama 3.1 model card: the FP8 405B runs on a single node of 8 × H100" }],
  "DeepSeek-V3": [
    { gpus: 141, nodes: 1, gpusPerNode: 8, tp: 8, pp: 1, source: "DeepSeek-V3's README and SGLang's DeepSeek guide: one 8 × H200 node, tensor parallel 8" },
    { gpus: 80, nodes: 2, gpusPerNode: 8, tp: 8, pp: 2, source: "SGLang's and vLLM's DeepSeek-V3 guides: two 8 × H100 nodes" },
  ],
  "Qwen3-235B-A22B": [{ gpus: 80, nodes: 1, gpusPerNode: 8, tp: 8, pp: 1, source: "Qwen3's README: vllm serve Qwen/Qwen3-235B-A22B with tensor parallel 8 on 8 × 80GB GPUs" }],
  "Qwen3-30B-A3B": [{ gpus: 80, nodes: 1, gpusPerNode: 1, tp: 1, pp: 1, source: "61 GB of bf16 weights: one 80 GB GPU, as Qwen3's README serves it" }],
};

describe("plans for real models match what people run them with", () => {
  for (const [name, cases] of Object.entries(CASES)) {
    for (const expected of cases) {
      test(`${name} on ${expected.gpus} GB GPUs → ${expected.nodes} × ${expected.gpusPerNode}, TP ${expected.tp} × PP ${expected.pp} (${expected.source})`, () => {
        const outcome = planPlacement({ facts: model(name).facts, partitions: [GPUS[expected.gpus]], engine: "vllm", given: {} });
        if (outcome.kind !== "placed") throw new Error(`not placed: ${JSON.stringify(outcome)}`);
        const { placement } = outcome;
        expect({ nodes: placement.nodes, gpusPerNode: placement.gpusPerNode, tp: placement.tensorParallel, pp: placement.pipelineParallel }).toEqual({
          nodes: expected.nodes,
          gpusPerNode: expected.gpusPerNode,
          tp: expected.tp,
          pp: expected.pp,
        });
        expect(placement.source).toBe("planned");
        expect(placement.summary).toContain(`partition ${GPUS[expected.gpus].name}`);
        const full = model(name).facts.contextLength!;
        if (expected.loweredTo !== undefined) {
          expect(placement.maxModelLen!).toBeLessThan(full);
          expect(placement.maxModelLen!).toBeGreaterThanOrEqual(expected.loweredTo);
          expect(placement.maxModelLen! % 256).toBe(0);
          expect(placement.summary).toContain(`lowered from ${full.toLocaleString("en-US")}`);
          expect(placement.reasons.join(" ")).toContain("--max-model-len lowered to");
        } else {
          expect(placement.maxModelLen).toBe(full);
        }
      });
    }
  }

  test("the summary reads as one line: weights, KV for sequences × tokens, GPUs, parallel sizes, partition", () => {
    const outcome = planPlacement({ facts: model("Mixtral-8x22B-Instruct-v0.1").facts, partitions: [GPUS[48]], engine: "vllm", given: {} });
    expect(outcome.kind === "placed" && outcome.placement.summary).toBe("281 GB bf16 weights + 15 GB KV (1 × 65,536 tokens) → 2 nodes × 4 × A40-45GB, tensor parallel 4 × pipeline parallel 2, partition a40");
  });

  test("the cheapest partition that fits is chosen among several: fewest GPUs, then the smallest GPUs", () => {
    const partitions = [GPUS[141], GPUS[80], gpuPartition("a40-big", "a40", 46068, 8, 2)];
    const outcome = planPlacement({ facts: model("Llama-3.1-70B-Instruct").facts, partitions, engine: "vllm", given: {} });
    // 2 × H200 is the fewest GPUs that hold the weights and the whole context.
    expect(outcome.kind === "placed" && [outcome.placement.partition, outcome.placement.gpusPerNode]).toEqual(["h200", 2]);
    const small = planPlacement({ facts: model("Qwen2.5-7B-Instruct").facts, partitions, engine: "vllm", given: {} });
    expect(small.kind === "placed" && small.placement.partition).toBe("a40-big");
  });

  test("a model larger than the whole profile is refused with what it needs and what the largest placement offers", () => {
    const oneNode = gpuPartition("gpu", "a40", 46068, 4, 1);
    const outcome = planPlacement({ facts: model("Llama-3.1-405B-Instruct").facts, partitions: [oneNode], engine: "vllm", given: {} });
    if (outcome.kind !== "refused") throw new Error(`not refused: ${JSON.stringify(outcome)}`);
    expect(outcome.neededBytes).toBeGreaterThan(811e9);
    expect(outcome.offeredBytes).toBeLessThan(200e9);
    expect(outcome.message).toContain("needs 814 GB");
    expect(outcome.message).toMatch(/the largest placement, 4 × A40-45GB in partition gpu, offers 1\d\d GB/);
  });

  test("a user's --gres that cannot hold the model is kept, with a warning and svc's own plan", () => {
    const outcome = planPlacement({ facts: model("Llama-3.1-70B-Instruct").facts, partitions: [GPUS[80]], engine: "vllm", given: { gres: 1, partition: "h100" } });
    if (outcome.kind !== "placed") throw new Error(JSON.stringify(outcome));
    expect(outcome.placement.source).toBe("user");
    expect(outcome.placement.gpusPerNode).toBe(1);
    expect(outcome.warnings.join(" ")).toContain("Your placement likely cannot hold the model");
    expect(outcome.warnings.join(" ")).toContain("svc's plan: 141 GB bf16 weights");
    expect(outcome.warnings.join(" ")).toContain("4 × H100-80GB, tensor parallel 4");
  });
});
