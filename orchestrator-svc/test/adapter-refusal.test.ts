/**
 * A LoRA adapter is refused as a model before anything starts (issue 42): `svc run` and deployments
 * (planned like a run) answer 400 `model_is_adapter`, naming its base and the command that serves it
 * there, with what the registry lacks of that base. A batch job runs an adapter on its base
 * (batch-adapters.test.ts), so there only a missing base is refused.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiError, Model, Profile } from "@svc/contracts";
import { planLaunch } from "../src/launch/planner";
import { planBatch } from "../src/batches/plan";
import { plannerDeps } from "./planner-deps";

const home = mkdtempSync(join(tmpdir(), "svc-adapter-refusal-"));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const row = (extra: Partial<Model>): Model => ({ repo: "acme/lora", revision: "a".repeat(40), profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z", ...extra });

const peft = row({
  adapter: { kind: "peft", file: "adapter_model.safetensors", base: "meta-llama/Llama-3.1-8B", rank: 16 },
  adapterBase: { state: "not_registered", repo: "meta-llama/Llama-3.1-8B", problems: [], message: "Base meta-llama/Llama-3.1-8B is not in the registry of profile default: svc model add meta-llama/Llama-3.1-8B" },
});
const registered = row({
  repo: "svc-tiny/tiny-llama-lora-gguf",
  facts: { architecture: "llama", weightFormat: "gguf" },
  adapter: { kind: "gguf", file: "lora.gguf", base: "svc-tiny/tiny-llama-gguf" },
  adapterBase: { state: "registered", repo: "svc-tiny/tiny-llama-gguf", problems: [], message: "Base svc-tiny/tiny-llama-gguf is registered." },
});
const unnamed = row({ repo: "acme/anon-lora", facts: { architecture: "llama" }, adapter: { kind: "gguf", file: "lora.gguf" }, adapterBase: { state: "not_named", problems: [], message: "It names no base model: serve it on a registered model it fits." } });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error) => error as ApiError,
  );
const run = (model: Model) => refusal(planLaunch({ task: "text-generation", model: model.repo }, plannerDeps({}, local, model), "default"));

describe("svc run <adapter>", () => {
  test("is refused with its base, how to serve it there, and what the registry lacks of the base", async () => {
    const error = await run(peft);
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: "model_is_adapter" });
    expect(error.message).toBe(
      "acme/lora is a LoRA adapter (peft) of meta-llama/Llama-3.1-8B, not a model: serve it on its base with 'svc run text-generation meta-llama/Llama-3.1-8B --adapter acme/lora'. " +
        "Base meta-llama/Llama-3.1-8B is not in the registry of profile default: svc model add meta-llama/Llama-3.1-8B",
    );
  });

  test("with its base registered, the message is the command alone; with no base named, it says so", async () => {
    expect((await run(registered)).message).toBe(
      "svc-tiny/tiny-llama-lora-gguf is a LoRA adapter (gguf) of svc-tiny/tiny-llama-gguf, not a model: serve it on its base with 'svc run text-generation svc-tiny/tiny-llama-gguf --adapter svc-tiny/tiny-llama-lora-gguf'.",
    );
    expect((await run(unnamed)).message).toBe(
      "acme/anon-lora is a LoRA adapter (gguf), not a model, and names no base: serve it on a llama model it fits with 'svc run text-generation BASE --adapter acme/anon-lora'.",
    );
  });

  test("whatever the task or revision asked: an adapter is never launched", async () => {
    const deps = plannerDeps({}, local, registered);
    expect((await refusal(planLaunch({ task: "speech-recognition", model: registered.repo }, deps, "default"))).code).toBe("model_is_adapter");
    expect((await refusal(planLaunch({ task: "text-generation", model: registered.repo, revision: "a".repeat(12), dryRun: true }, deps, "default"))).code).toBe("model_is_adapter");
  });
});

test("a batch job of an adapter whose base is not registered is refused, before its paths are looked at", async () => {
  const error = await refusal(planBatch({ task: "openai", model: peft.repo, input: "/nowhere/requests.jsonl", output: "/nowhere/results.jsonl" }, plannerDeps({}, local, peft), { uploadsDir: home, id: "job" }));
  expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: "adapter_base_not_found" });
  expect(error.message).toStartWith("acme/lora is a LoRA adapter (peft) of meta-llama/Llama-3.1-8B, which is not in the registry of profile default");
});
