import { Type, type Static } from "@sinclair/typebox";
import { literalUnion } from "./literal-union";
import { MODEL_KINDS } from "./model-values";

export * from "./model-values";

/**
 * LoRA adapters in the model registry (issue 42): what an adapter's files say, read at `svc model
 * ls --refresh` like a model's facts, and how its base stands in the registry. An adapter is a row
 * of the registry with `adapter` set; it is served on a base model, never as a model of its own.
 */

/** `peft`: adapter_config.json + adapter_model.safetensors (vLLM, SGLang); `gguf`: a GGUF with `general.type = adapter` (llama.cpp). */
export const ADAPTER_KINDS = ["peft", "gguf"] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

const count = (description: string) => Type.Integer({ minimum: 0, description });

/** One module the adapter changes, with the shapes its A and B tensors give. */
export const AdapterModule = Type.Object(
  {
    name: Type.String({
      description:
        "The module as the adapter's tensors name it, without layer numbers: `self_attn.q_proj`, `mlp.down_proj`, `lm_head` (PEFT) or `attn_q`, `ffn_down`, `output` (GGUF).",
    }),
    inFeatures: count("The size of the module's input (A's columns; for an embedding, the vocabulary)."),
    outFeatures: count("The size of the module's output (B's rows)."),
    rank: count("The rank of its A and B."),
    layers: count("How many layers have it (0: a module outside the layers, such as lm_head)."),
  },
  { $id: "AdapterModule", additionalProperties: false },
);
export type AdapterModule = Static<typeof AdapterModule>;

/**
 * What an adapter's files say; set on a registry row that is a LoRA adapter, not a model. Every
 * field but `kind` and `file` may be absent: a fact its files do not give is not guessed.
 */
export const AdapterFacts = Type.Object(
  {
    kind: literalUnion(ADAPTER_KINDS, { description: "peft (adapter_config.json + adapter_model.safetensors) or gguf (a GGUF LoRA adapter, for llama.cpp)." }),
    file: Type.String({ description: "The adapter's weights, relative to the snapshot folder: adapter_model.safetensors or the .gguf file." }),
    base: Type.Optional(
      Type.String({
        description:
          "The base model's repo id as the adapter names it: adapter_config.json `base_model_name_or_path` (PEFT), `general.base_model.0.repo_url` (GGUF), else the model card's `base_model`.",
      }),
    ),
    baseNamed: Type.Optional(Type.String({ description: "What the adapter names as its base when that is not a repo id (a local path, a name)." })),
    rank: Type.Optional(count("The LoRA rank: the largest of its tensors' (PEFT: else adapter_config.json `r`).")),
    alpha: Type.Optional(Type.Number({ description: "`lora_alpha` (PEFT) or `adapter.lora.alpha` (GGUF): B·A is scaled by alpha ÷ rank." })),
    targetModules: Type.Optional(
      Type.Array(Type.String(), { description: "adapter_config.json `target_modules` as written (a pattern is one entry); GGUF: the modules its tensors change." }),
    ),
    modules: Type.Optional(Type.Array(AdapterModule, { description: "The modules its tensors change, with their shapes (from the safetensors header or the GGUF tensor infos)." })),
    layers: Type.Optional(count("Its tensors reach this many layers (the highest layer number + 1): the base needs at least as many.")),
    taskType: Type.Optional(Type.String({ description: "adapter_config.json `task_type`, e.g. CAUSAL_LM." })),
  },
  { $id: "AdapterFacts", additionalProperties: false, description: "Set when the snapshot is a LoRA adapter (PEFT or GGUF), not a model: what its files say. An adapter is served on a base model, never on its own." },
);
export type AdapterFacts = Static<typeof AdapterFacts>;

export const ADAPTER_BASE_STATES = ["registered", "not_registered", "does_not_fit", "not_named"] as const;

/**
 * How an adapter's base stands in the registry of the adapter's profile, worked out when the
 * registry is listed: `registered` (a snapshot of it is registered, and fits as far as the facts
 * tell), `not_registered`, `does_not_fit` (registered, but no snapshot of it fits: `problems` say
 * why), `not_named` (the adapter names no base).
 */
export const AdapterBase = Type.Object(
  {
    state: literalUnion(ADAPTER_BASE_STATES),
    repo: Type.Optional(Type.String({ description: "The base's repo id, as the adapter names it." })),
    problems: Type.Array(Type.String(), { description: "Why the registered base does not fit (does_not_fit), one line each." }),
    message: Type.String({ description: "The state in a sentence, with what to do when something is missing." }),
  },
  { $id: "AdapterBase", additionalProperties: false, description: "An adapter's base as the registry has it for the adapter's profile, worked out at each listing." },
);
export type AdapterBase = Static<typeof AdapterBase>;

export const ModelKind = literalUnion(MODEL_KINDS, { description: "model: served on its own; adapter: a LoRA adapter, served on a base model." });
export type ModelKind = (typeof MODEL_KINDS)[number];
