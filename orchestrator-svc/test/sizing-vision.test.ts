/**
 * A vision-language model's plan (issue 43): Qwen2-VL-2B-Instruct's real config.json and sparse
 * safetensors shards whose headers list its real tensors, the vision tower's (`visual.`) among them.
 * The plan counts the tower in the weights and says how much of them it is; the KV cache is the
 * language model's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelFacts } from "@svc/contracts";
import { readFacts, writeSnapshot } from "@svc/testing/real-models";
import { planPlacement } from "../src/launch/sizing/plan";
import { sizedModel, type SizedModel } from "../src/launch/sizing/sized-model";
import { weightBytesPerGpu } from "../src/launch/sizing/gpu-memory";
import { GPUS } from "./gpu-partitions";

const root = mkdtempSync(join(tmpdir(), "svc-sizing-vision-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
writeSnapshot("Qwen2-VL-2B-Instruct", root);
const vlm = await readFacts(root);
const { vision: _tower, ...textOnly } = vlm;

/** The tower's bytes: 32 blocks of 1,280 wide, the patch embedding and the merger into the 1,536-wide language model, in bf16. */
const TOWER_BYTES = 1_330_542_592;

const plan = (facts: ModelFacts) => {
  const outcome = planPlacement({ facts, partitions: [GPUS[48]], engine: "vllm", given: {} });
  if (outcome.kind !== "placed") throw new Error(JSON.stringify(outcome));
  return outcome.placement;
};

describe("a vision-language model", () => {
  test("its facts: the vision tower's tensors from the headers, part of the weights; the language model's shape from config.json", () => {
    expect(vlm).toMatchObject({ architecture: "Qwen2VLForConditionalGeneration", weightBytes: 4_417_971_200, layers: 28, kvHeads: 2, headDim: 128, contextLength: 32768 });
    expect(vlm.vision).toEqual({ parameters: TOWER_BYTES / 2, weightBytes: TOWER_BYTES });
  });

  test("planned with its vision tower: the summary says how much of the weights it is; the KV cache is the language model's", () => {
    const placement = plan(vlm);
    expect(placement.summary).toBe("4.4 GB bf16 weights (of which vision tower 1.3 GB) + 1.9 GB KV (2 × 32,768 tokens) → 1 × A40-45GB, partition a40");
    expect(placement.memory.weightBytes).toBe(4_417_971_200);
    expect(placement.memory.visionTowerBytes).toBe(TOWER_BYTES);
    // 2 × 28 layers × 2 key/value heads × 128 × 2 bytes a token, the vision tower's own heads not counted.
    expect(placement.memory.kvCacheBytes).toBe(28 * 2 * 2 * 128 * 2 * 2 * 32768);
  });

  test("without a vision tower in its facts, the same weights are planned without the line", () => {
    const placement = plan(textOnly);
    expect(placement.summary).toBe("4.4 GB bf16 weights + 1.9 GB KV (2 × 32,768 tokens) → 1 × A40-45GB, partition a40");
    expect(placement.memory.visionTowerBytes).toBeUndefined();
  });

  test("across pipeline stages the vision tower is on the first stage, beside its layers and the embeddings", () => {
    const withTower = sizedModel(vlm, 2) as SizedModel;
    const without = sizedModel(textOnly, 2) as SizedModel;
    expect(withTower.visionBytes).toBe(TOWER_BYTES);
    expect(without.visionBytes).toBe(0);
    const split = { gpuBytes: 48e9, tp: 1, pp: 2 };
    const layerBytes = (4_417_971_200 - 2 * withTower.vocabMatrixBytes - TOWER_BYTES) / 28;
    expect(weightBytesPerGpu(withTower, split)).toBeCloseTo(14 * layerBytes + withTower.vocabMatrixBytes + TOWER_BYTES, 0);
    expect(weightBytesPerGpu(withTower, split)).toBeGreaterThan(weightBytesPerGpu(without, split));
  });
});
