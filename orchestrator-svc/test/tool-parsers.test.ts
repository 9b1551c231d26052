import { expect, test } from "bun:test";
import type { ModelFacts } from "@svc/contracts";
import { toolCallArgs } from "../src/engines/tool-parsers";

const facts = (modelType: string) => ({ modelType }) as ModelFacts;

test("Qwen's text and vision-language families get the Hermes-style parser on vLLM and qwen25 on SGLang", () => {
  for (const modelType of ["qwen2", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe"]) {
    expect(toolCallArgs("vllm", facts(modelType), []).args).toEqual(["--enable-auto-tool-choice", "--tool-call-parser", "hermes"]);
    expect(toolCallArgs("sglang", facts(modelType), []).args).toEqual(["--tool-call-parser", "qwen25"]);
  }
});

test("a family svc knows no parser for gets none and a warning; the user's own parser wins", () => {
  const unknown = toolCallArgs("vllm", facts("qwen2_audio"), []);
  expect(unknown.args).toEqual([]);
  expect(unknown.warnings[0]).toContain("svc knows no vLLM tool-call parser");
  expect(toolCallArgs("vllm", facts("qwen2_vl"), ["--tool-call-parser", "pythonic"])).toEqual({ args: [], warnings: [] });
});
