import type { AdapterFacts, AdapterModule } from "./adapters";
import type { ModelFacts } from "./model-facts";

/**
 * Whether a LoRA adapter can be applied to a base model, decided from the registry's facts alone
 * (before anything starts): the weight format the adapter's engine needs, the architecture (a GGUF
 * adapter names its own, which llama.cpp checks), the layers its tensors reach, and each module's
 * input and output size against the sizes the base's config.json or GGUF metadata give. A fact
 * either side lacks is not guessed: what could not be checked is said in `notes`, not refused.
 */

export interface AdapterUnderCheck {
  repo: string;
  facts?: ModelFacts;
  adapter: AdapterFacts;
}

export interface BaseUnderCheck {
  repo: string;
  facts?: ModelFacts;
  /** Set when the "base" is itself an adapter (refused). */
  adapter?: AdapterFacts;
}

export interface AdapterFit {
  /** No problem found: the adapter can be applied as far as the facts tell. */
  fits: boolean;
  /** Why it cannot be applied to this base, one sentence each. */
  problems: string[];
  /** What could not be checked, and other things worth knowing (it names another base). */
  notes: string[];
}

type Dim = "hidden" | "attention" | "kv" | "intermediate" | "vocab";

/** Input and output sizes of the modules LoRA adapters usually change, by their PEFT (Llama-family) and GGUF names. */
const MODULE_DIMS: Record<string, [Dim, Dim]> = {
  q_proj: ["hidden", "attention"],
  attn_q: ["hidden", "attention"],
  k_proj: ["hidden", "kv"],
  attn_k: ["hidden", "kv"],
  v_proj: ["hidden", "kv"],
  attn_v: ["hidden", "kv"],
  o_proj: ["attention", "hidden"],
  attn_output: ["attention", "hidden"],
  gate_proj: ["hidden", "intermediate"],
  ffn_gate: ["hidden", "intermediate"],
  up_proj: ["hidden", "intermediate"],
  ffn_up: ["hidden", "intermediate"],
  down_proj: ["intermediate", "hidden"],
  ffn_down: ["intermediate", "hidden"],
  lm_head: ["hidden", "vocab"],
  output: ["hidden", "vocab"],
  embed_tokens: ["vocab", "hidden"],
  token_embd: ["vocab", "hidden"],
};

const DIM_WORDS: Record<Dim, string> = {
  hidden: "hidden size",
  attention: "attention heads × head dim",
  kv: "key/value heads × head dim",
  intermediate: "intermediate size",
  vocab: "vocabulary size",
};

function dimension(facts: ModelFacts, dim: Dim): number | undefined {
  const times = (a?: number, b?: number) => (a !== undefined && b !== undefined ? a * b : undefined);
  switch (dim) {
    case "hidden":
      return facts.hiddenSize;
    case "attention":
      return times(facts.attentionHeads, facts.headDim);
    case "kv":
      return times(facts.kvHeads, facts.headDim);
    case "intermediate":
      return facts.intermediateSize;
    case "vocab":
      return facts.vocabSize;
  }
}

/** The sizes MODULE_DIMS gives a module, or why they cannot be told. */
function expectedShape(module: AdapterModule, facts: ModelFacts): { in: number; out: number } | { unknown: "module" | Dim | "experts" } {
  const key = module.name.split(".").at(-1) ?? module.name;
  const dims = module.name.includes("expert") ? undefined : MODULE_DIMS[key];
  if (!dims) return { unknown: "module" };
  // A mixture of experts' MLP modules have the experts' sizes, which the facts do not hold.
  if ((facts.experts ?? 0) > 0 && dims.includes("intermediate")) return { unknown: "experts" };
  const [inSize, outSize] = dims.map((dim) => dimension(facts, dim));
  if (inSize === undefined) return { unknown: dims[0] };
  if (outSize === undefined) return { unknown: dims[1] };
  return { in: inSize, out: outSize };
}

const list = (names: string[]) => [...new Set(names)].join(", ");

/** Whether `adapter` can be applied to `base`, with the reasons (see the module comment). */
export function adapterFit(adapter: AdapterUnderCheck, base: BaseUnderCheck): AdapterFit {
  const problems: string[] = [];
  const notes: string[] = [];
  const done = () => ({ fits: problems.length === 0, problems, notes });
  if (base.adapter) {
    problems.push(`${base.repo} is a LoRA adapter itself, not a model to apply one to.`);
    return done();
  }
  const facts = base.facts ?? {};
  const format = facts.weightFormat;
  if (adapter.adapter.kind === "gguf" && format !== undefined && format !== "gguf") {
    problems.push(`${adapter.repo} is a GGUF adapter, which llama.cpp applies to a GGUF model; ${base.repo}'s weights are ${format}.`);
  } else if (adapter.adapter.kind === "peft" && format !== undefined && format !== "safetensors") {
    problems.push(`${adapter.repo} is a PEFT adapter, which vLLM and SGLang apply to safetensors weights; ${base.repo}'s weights are ${format}.`);
  } else if (format === undefined) notes.push(`${base.repo}'s weight format is unknown: not checked against a ${adapter.adapter.kind} adapter.`);

  const architecture = adapter.adapter.kind === "gguf" ? adapter.facts?.architecture : undefined;
  if (architecture && facts.architecture && format === "gguf" && architecture !== facts.architecture) {
    problems.push(`${adapter.repo} is an adapter of a ${architecture} model; ${base.repo} is ${facts.architecture}.`);
  }

  const layers = adapter.adapter.layers;
  if (layers !== undefined && facts.layers !== undefined && layers > facts.layers) {
    problems.push(`${adapter.repo}'s tensors reach layer ${layers - 1}; ${base.repo} has ${facts.layers} layers.`);
  }

  const unknownModules: string[] = [];
  const unknownSizes = new Map<string, string[]>();
  for (const module of adapter.adapter.modules ?? []) {
    const expected = expectedShape(module, facts);
    if ("unknown" in expected) {
      if (expected.unknown === "module") unknownModules.push(module.name);
      else {
        const why = expected.unknown === "experts" ? `${base.repo} is a mixture of experts, whose MLP sizes svc does not hold` : `${base.repo}'s ${DIM_WORDS[expected.unknown]} is unknown`;
        unknownSizes.set(why, [...(unknownSizes.get(why) ?? []), module.name]);
      }
    } else if (expected.in !== module.inFeatures || expected.out !== module.outFeatures) {
      problems.push(`${module.name} is ${module.inFeatures}→${module.outFeatures} in ${adapter.repo}, ${expected.in}→${expected.out} in ${base.repo}.`);
    }
  }
  if (adapter.adapter.modules === undefined) notes.push(`${adapter.repo}'s tensor shapes are unknown: its modules were not checked against ${base.repo}.`);
  for (const [why, names] of unknownSizes) notes.push(`Not checked (${why}): ${list(names)}.`);
  if (unknownModules.length > 0) notes.push(`Not checked (svc does not know these modules' shapes): ${list(unknownModules)}.`);

  const named = adapter.adapter.base;
  if (named !== undefined && named !== base.repo) notes.push(`${adapter.repo} names ${named} as its base, not ${base.repo}.`);
  return done();
}
