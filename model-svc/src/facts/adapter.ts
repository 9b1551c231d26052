import type { GGUFParseOutput } from "@huggingface/gguf";
import { isRepoId, type AdapterFacts } from "@svc/contracts";
import { cardField } from "../discovery/model-card";
import { repoFromFolderName } from "../discovery/repo-folder";
import { defined } from "./config";
import type { PeftConfig } from "./adapter-config";
import { ggufHalves, loraModules, peftHalves, type TensorShape } from "./lora-tensors";

/**
 * The repo id in what an adapter names as its base: a repo id, a hub URL
 * (`https://huggingface.co/<owner>/<name>`), or a path into a hub cache (`…/models--<owner>--<name>/…`).
 */
function repoIn(named: string): string | undefined {
  if (isRepoId(named)) return named;
  const url = /^https?:\/\/(?:www\.)?huggingface\.co\/([^/?#]+\/[^/?#]+)/.exec(named);
  if (url && isRepoId(url[1])) return url[1];
  for (const part of named.split("/")) {
    const folder = repoFromFolderName(part);
    if ("repo" in folder) return folder.repo;
  }
  return undefined;
}

/** The base from what the adapter's files name, else from the model card's `base_model`. */
function baseOf(named: string | undefined, readme: string | undefined): Pick<AdapterFacts, "base" | "baseNamed"> {
  const fromFiles = named === undefined ? undefined : repoIn(named);
  if (fromFiles) return { base: fromFiles };
  const card = readme === undefined ? undefined : cardField(readme, "base_model");
  const fromCard = card !== undefined && isRepoId(card) ? card : undefined;
  return defined({ base: fromCard, baseNamed: named });
}

/** Modules, layers and rank from the tensors, or the problems that leave them unknown. */
function shapes(read: ReturnType<typeof loraModules>, problems: string[]): Pick<AdapterFacts, "modules" | "layers" | "rank"> {
  if ("problems" in read) {
    problems.push(...read.problems);
    return {};
  }
  return { modules: read.modules, layers: read.layers, rank: read.rank || undefined };
}

/**
 * A PEFT LoRA adapter's facts: adapter_config.json, and the shapes of its tensors when its
 * safetensors header could be read (`tensors`). What cannot be read is added to `problems`.
 */
export function peftAdapterFacts(file: string, config: PeftConfig, tensors: TensorShape[] | undefined, readme: string | undefined, problems: string[]): AdapterFacts {
  const fromTensors = tensors ? shapes(loraModules(peftHalves(tensors)), problems) : {};
  return defined({
    kind: "peft" as const,
    file,
    ...baseOf(config.baseModel, readme),
    rank: fromTensors.rank ?? config.rank,
    alpha: config.alpha,
    targetModules: config.targetModules,
    modules: fromTensors.modules,
    layers: fromTensors.layers,
    taskType: config.taskType,
  });
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** A GGUF file's adapter facts when its metadata says `general.type = adapter`; undefined for a model. */
export function ggufAdapterFacts(file: string, parsed: GGUFParseOutput, readme: string | undefined, problems: string[]): AdapterFacts | undefined {
  const metadata = parsed.metadata as Record<string, unknown>;
  if (metadata["general.type"] !== "adapter") return undefined;
  if (metadata["adapter.type"] !== "lora") problems.push(`${file}: its adapter.type is ${JSON.stringify(metadata["adapter.type"] ?? null)}, not lora`);
  const tensors = parsed.tensorInfos.map((t) => ({ name: t.name, shape: t.shape.map(Number) }));
  const fromTensors = shapes(loraModules(ggufHalves(tensors)), problems);
  const alpha = metadata["adapter.lora.alpha"];
  return defined({
    kind: "gguf" as const,
    file,
    ...baseOf(text(metadata["general.base_model.0.repo_url"]) ?? text(metadata["general.base_model.0.name"]), readme),
    alpha: typeof alpha === "number" && Number.isFinite(alpha) ? alpha : undefined,
    targetModules: fromTensors.modules ? [...new Set(fromTensors.modules.map((m) => m.name))] : undefined,
    ...fromTensors,
  });
}
