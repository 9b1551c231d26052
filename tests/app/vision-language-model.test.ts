/**
 * A vision-language model on the Slurm test cluster (issue 43), end to end: Qwen2-VL-2B-Instruct's
 * real config.json and safetensors shards of the true size (sparse: headers only, its vision
 * tower's `visual.` tensors among them), registered as text-generation (vision), planned with its
 * vision tower, run on the stand-in vLLM and SGLang, and a chat through /v1 with an image part: the stand-in
 * answers with each image part's place and its URL's SHA-256 (images/slurm-test/gpu-stand-ins,
 * image_parts.py), so the image is seen to arrive byte for byte.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import OpenAI from "openai";
import type { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { GPU_TEST_NODES, runSvc, type ClusterApp } from "@svc/testing";
import { serviceReaches, startGpuClusterWithRealModel } from "@svc/testing/cluster-real-model";

const PROFILE = "cluster";
const MODEL = "svc-test/Qwen2-VL-2B-Instruct";
const KEY = "sk-vision";
const PARTITION = ["--partition", GPU_TEST_NODES.partition];
/** The plan on one A100 (40 GB, the GPU table's assumption for `a100`): 4.4 GB of weights, 1.3 GB of them the vision tower. */
const PLAN = "4.4 GB bf16 weights (of which vision tower 1.3 GB) + 1.9 GB KV (2 × 32,768 tokens) → 1 × A100-40GB, partition gpu";
/** A 1×1 PNG. */
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let started: ClusterApp;
let client: SvcClient;
let env: Record<string, string>;

const run = (args: string[]) => runSvc(args, env);
const reaches = (id: string, wanted: ServiceStatus) => serviceReaches(started, id, wanted);

beforeAll(async () => {
  started = await startGpuClusterWithRealModel(PROFILE, "Qwen2-VL-2B-Instruct", MODEL);
  ({ client, env } = started);
}, 300_000);

afterAll(async () => {
  await started?.cleanup();
});

describe("a vision-language model on the cluster's stand-in engines", () => {
  test("registered as text-generation (vision) with its vision tower from the headers; planned with it", async () => {
    const model = (await client.models.list({ profile: PROFILE })).find((each) => each.repo === MODEL);
    expect(model?.image).toBe("text-generation");
    expect(model?.facts?.vision).toEqual({ parameters: 665_271_296, weightBytes: 1_330_542_592 });
    const ls = await run(["model", "ls", "-p", PROFILE]);
    expect(ls.stdout.split("\n").find((line) => line.startsWith(MODEL))).toMatch(/ text-generation \(vision\) /);
    const dry = await run(["run", "-p", PROFILE, ...PARTITION, "--engine", "vllm", "text-generation", MODEL, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`Plan: ${PLAN}`);
  });

  for (const engine of ["vllm", "sglang"]) {
    test(`${engine}: a chat with an image part reaches the stand-in engine intact through /v1`, async () => {
      const result = await run(["run", "-p", PROFILE, ...PARTITION, "--engine", engine, "--api-key", KEY, "text-generation", MODEL]);
      expect(result.code, result.stderr).toBe(0);
      const id = result.stdout.trim();
      await reaches(id, "HEALTHY");
      const openai = new OpenAI({ baseURL: `${started.app.url}/v1`, apiKey: "unused", maxRetries: 0 });
      const answer = await openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: PNG } }] }],
        max_completion_tokens: 4,
      });
      const sha = createHash("sha256").update(PNG).digest("hex");
      expect(answer.choices[0].message.content).toBe(`received 1 image part: messages[0].content[1] sha256:${sha} (${PNG.length} characters)`);
      // A text chat still goes through to the model.
      const text = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 4 });
      expect(text.usage!.completion_tokens).toBeGreaterThan(0);
      expect((await run(["stop", id])).code).toBe(0);
      await reaches(id, "STOPPED");
    }, 180_000);
  }
});
