import type { Task } from "@svc/contracts";
import type { SnapshotFacts } from "./types";
import { cardField } from "./model-card";
import { peftLayout } from "../facts/adapter-files";
import { parseAdapterConfig } from "../facts/adapter-config";

export type Classification = { image: Task; evidence: string } | { image: null; reason: string };

const MAGIC = { gguf: "47475546", ggml: "6c6d6767" } as const;

const PIPELINE_TAGS: Record<string, Task> = {
  "text-generation": "text-generation",
  "image-text-to-text": "text-generation",
  "automatic-speech-recognition": "speech-recognition",
};

/** A vision-language model (Qwen2-VL, Llava, Gemma 3, Mistral 3, Llama 4…) answers in text: text-generation, with images on vLLM and SGLang. */
function fromArchitecture(arch: string, hasVisionConfig: boolean): Task | undefined {
  if (/^Whisper/.test(arch)) return "speech-recognition";
  if (/(ForCausalLM|LMHeadModel)$/.test(arch)) return "text-generation";
  if (hasVisionConfig && /ForConditionalGeneration$/.test(arch)) return "text-generation";
  return undefined;
}

/** The `pipeline_tag` of a model card's YAML front matter (between the first two `---` lines). */
export function pipelineTag(readme: string): string | undefined {
  const tag = cardField(readme, "pipeline_tag");
  return tag && /^[A-Za-z0-9-]+$/.test(tag) ? tag : undefined;
}

/**
 * A PEFT adapter's kind: its adapter_config.json `task_type` CAUSAL_LM (else the model card's
 * pipeline_tag) makes it a text-generation adapter. Only LoRA adapters with their weights are registered.
 */
function classifyPeft(facts: SnapshotFacts, weights: string | undefined): Classification {
  if (!weights) return { image: null, reason: "a PEFT adapter (adapter_config.json) without its weights: adapter_model.safetensors is missing" };
  let config;
  try {
    config = parseAdapterConfig(facts.adapterConfig ?? "");
  } catch (error) {
    return { image: null, reason: `a PEFT adapter whose adapter_config.json is ${(error as Error).message}` };
  }
  if (config.peftType !== undefined && config.peftType !== "LORA") return { image: null, reason: `a PEFT ${config.peftType} adapter: svc registers LoRA adapters only` };
  if (config.taskType === "CAUSAL_LM") return { image: "text-generation", evidence: "adapter_config.json task_type CAUSAL_LM" };
  const tag = facts.readme === undefined ? undefined : pipelineTag(facts.readme);
  if (tag && PIPELINE_TAGS[tag]) return { image: PIPELINE_TAGS[tag], evidence: `model card pipeline_tag ${tag}` };
  return { image: null, reason: `a PEFT LoRA adapter whose task svc cannot tell: adapter_config.json task_type ${config.taskType ?? "none"}, ${tag ? `pipeline_tag ${tag}` : "no model card pipeline_tag"}` };
}

/**
 * Decides a snapshot's service kind offline, from its files only, in this order: `config.json`
 * architectures (…ForCausalLM / …LMHeadModel, or …ForConditionalGeneration with a `vision_config`
 * → text-generation, Whisper… → speech-recognition),
 * the model card's `pipeline_tag`, a GGUF file (text-generation), a whisper.cpp ggml file
 * (speech-recognition). A PEFT adapter (adapter_config.json, no model weights) is decided by
 * classifyPeft. Anything else is not guessed: the answer says what was found instead.
 */
export function classify(facts: SnapshotFacts): Classification {
  const peft = peftLayout(facts.files);
  if (peft) return classifyPeft(facts, peft.weights);
  const seen: string[] = [];
  if (facts.config !== undefined) {
    let config: { architectures?: unknown; model_type?: unknown; vision_config?: unknown } | undefined;
    try {
      config = JSON.parse(facts.config);
    } catch {
      seen.push("config.json is not valid JSON");
    }
    if (config && typeof config === "object") {
      const architectures = Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === "string") : [];
      const vision = typeof config.vision_config === "object" && config.vision_config !== null;
      for (const arch of architectures) {
        const image = fromArchitecture(arch, vision);
        if (image) return { image, evidence: `config.json architecture ${arch}${vision && !/ForCausalLM$/.test(arch) ? " with a vision_config (a vision-language model)" : ""}` };
      }
      if (config.model_type === "whisper") return { image: "speech-recognition", evidence: "config.json model_type whisper" };
      seen.push(architectures.length > 0 ? `config.json architectures ${architectures.join(", ")}` : "config.json without architectures");
    }
  }
  if (facts.readme !== undefined) {
    const tag = pipelineTag(facts.readme);
    if (tag && PIPELINE_TAGS[tag]) return { image: PIPELINE_TAGS[tag], evidence: `model card pipeline_tag ${tag}` };
    if (tag) seen.push(`pipeline_tag ${tag}`);
  }
  const gguf = Object.entries(facts.magics).find(([, magic]) => magic === MAGIC.gguf);
  if (gguf) return { image: "text-generation", evidence: `GGUF file ${gguf[0]}` };
  const ggml = Object.entries(facts.magics).find(([path, magic]) => magic === MAGIC.ggml && /(^|\/)ggml-[^/]*\.bin$|whisper/i.test(path));
  if (ggml) return { image: "speech-recognition", evidence: `whisper.cpp ggml file ${ggml[0]}` };
  const found = seen.length > 0 ? seen.join("; ") : "no config.json, model card pipeline_tag, GGUF or ggml file";
  return { image: null, reason: `cannot tell its service kind (text-generation or speech-recognition): ${found}` };
}
