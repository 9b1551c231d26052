import type { GpuEngine, ModelFacts } from "@svc/contracts";
import { GPU_SERVERS, givenOptions } from "./gpu-servers";

/**
 * The tool-call parser each GPU server needs to turn a model's own call syntax into OpenAI
 * `tool_calls`, by the model's family as its config.json says (`model_type`; Llama 3's 128k
 * vocabulary tells it from Llama 2, which has no call syntax). Only families whose chat template
 * writes calls the parser reads are listed.
 */
const PARSERS: Array<{ family: string; matches: (facts: ModelFacts) => boolean; vllm?: string; sglang?: string }> = [
  { family: "Llama 3.x", matches: (facts) => facts.modelType === "llama" && (facts.vocabSize ?? 0) >= 128_000, vllm: "llama3_json", sglang: "llama3" },
  { family: "Llama 4", matches: (facts) => facts.modelType === "llama4", vllm: "llama4_pythonic", sglang: "pythonic" },
  // The vision-language ones (qwen2_vl, qwen2_5_vl, qwen3_vl…) write their calls as the text models do.
  { family: "Qwen 2/2.5/3, text and vision (Hermes-style <tool_call>)", matches: (facts) => /^qwen(2|2_5|3)(_vl)?(_moe)?$/.test(facts.modelType ?? ""), vllm: "hermes", sglang: "qwen25" },
  { family: "Mistral", matches: (facts) => facts.modelType === "mistral" || facts.modelType === "mixtral", vllm: "mistral", sglang: "mistral" },
  { family: "DeepSeek V3", matches: (facts) => facts.modelType === "deepseek_v3", vllm: "deepseek_v3", sglang: "deepseekv3" },
  { family: "Granite", matches: (facts) => facts.modelType === "granite", vllm: "granite" },
  { family: "InternLM 2", matches: (facts) => facts.modelType === "internlm2", vllm: "internlm" },
];

/**
 * The options that let a vLLM or SGLang service answer `tools` with `tool_calls` (vLLM:
 * `--enable-auto-tool-choice --tool-call-parser P`; SGLang: `--tool-call-parser P`), unless the
 * user's engine arguments set them (theirs win). A model whose family svc knows no parser for gets
 * none, and a warning saying how to give one.
 */
export function toolCallArgs(engine: GpuEngine, facts: ModelFacts | undefined, userArgs: readonly string[]): { args: string[]; warnings: string[] } {
  const given = givenOptions(engine, userArgs);
  if (given.has("--tool-call-parser") || given.has("--enable-auto-tool-choice")) return { args: [], warnings: [] };
  const known = facts ? PARSERS.find((entry) => entry.matches(facts)) : undefined;
  const parser = known?.[engine];
  if (!parser) {
    const what = facts?.modelType ? `model type ${facts.modelType}${known ? ` (${known.family})` : ""}` : "this model (its config.json was not read: svc model ls --refresh)";
    return {
      args: [],
      warnings: [`svc knows no ${GPU_SERVERS[engine].label} tool-call parser for ${what}: requests with tools are not answered with tool_calls. Give one in the engine arguments (--tool-call-parser NAME) if the model has one.`],
    };
  }
  return { args: engine === "vllm" ? ["--enable-auto-tool-choice", "--tool-call-parser", parser] : ["--tool-call-parser", parser], warnings: [] };
}
