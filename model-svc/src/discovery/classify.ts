import type { Task } from "@svc/contracts";
import type { SnapshotFacts } from "./types";

export type Classification = { image: Task; evidence: string } | { image: null; reason: string };

const MAGIC = { gguf: "47475546", ggml: "6c6d6767" } as const;

const PIPELINE_TAGS: Record<string, Task> = {
  "text-generation": "text-generation",
  "automatic-speech-recognition": "speech-recognition",
};

function fromArchitecture(arch: string): Task | undefined {
  if (/^Whisper/.test(arch)) return "speech-recognition";
  if (/(ForCausalLM|LMHeadModel)$/.test(arch)) return "text-generation";
  return undefined;
}

/** The `pipeline_tag` of a model card's YAML front matter (between the first two `---` lines). */
export function pipelineTag(readme: string): string | undefined {
  const lines = readme.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return undefined;
  for (const line of lines.slice(1)) {
    if (line.trim() === "---") return undefined;
    const match = /^pipeline_tag\s*:\s*["']?([A-Za-z0-9-]+)["']?\s*(#.*)?$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * Decides a snapshot's service kind offline, from its files only, in this order: `config.json`
 * architectures (…ForCausalLM / …LMHeadModel → text-generation, Whisper… → speech-recognition),
 * the model card's `pipeline_tag`, a GGUF file (text-generation), a whisper.cpp ggml file
 * (speech-recognition). Anything else is not guessed: the answer says what was found instead.
 */
export function classify(facts: SnapshotFacts): Classification {
  const seen: string[] = [];
  if (facts.config !== undefined) {
    let config: { architectures?: unknown; model_type?: unknown } | undefined;
    try {
      config = JSON.parse(facts.config);
    } catch {
      seen.push("config.json is not valid JSON");
    }
    if (config && typeof config === "object") {
      const architectures = Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === "string") : [];
      for (const arch of architectures) {
        const image = fromArchitecture(arch);
        if (image) return { image, evidence: `config.json architecture ${arch}` };
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
