import type { AdapterFacts, ModelFacts } from "@svc/contracts";
import type { SnapshotFacts } from "../discovery/types";
import { configFacts, defined } from "./config";
import { ggufMetadataFacts, ggufTotals, parseGgufHead } from "./gguf";
import { addTotals, mainDtype, safetensorsTensors, tensorTotals, torchDtype, type WeightTotals } from "./safetensors";
import { isVisionTensor } from "./vision";
import { SAFETENSORS_INDEX, weightFiles } from "./weight-files";
import { ggufAdapterFacts, peftAdapterFacts } from "./adapter";
import { ADAPTER_CONFIG, peftLayout } from "./adapter-files";
import { parseAdapterConfig } from "./adapter-config";

export interface FactsReading {
  /** Absent when the files say nothing. */
  facts?: ModelFacts;
  /** Set when the snapshot is a LoRA adapter (PEFT, or a GGUF with `general.type = adapter`). */
  adapter?: AdapterFacts;
  /** What could not be read, one line each (file: why); the facts then lack what those files would have given. */
  problems: string[];
}

interface Index {
  shards: string[];
  totalSize?: number;
}

function parseIndex(text: string): Index {
  let index: { metadata?: { total_size?: unknown }; weight_map?: unknown };
  try {
    index = JSON.parse(text);
  } catch {
    throw new Error("not valid JSON");
  }
  const map = index?.weight_map;
  if (typeof map !== "object" || map === null || Object.values(map).some((file) => typeof file !== "string")) throw new Error("it has no weight_map of tensor → file");
  const total = index.metadata?.total_size;
  return { shards: [...new Set(Object.values(map as Record<string, string>))].sort(), totalSize: typeof total === "number" ? total : undefined };
}

/** Parameters and bytes of the safetensors shards (those the index names, else every top-level file), and of the vision tower's tensors among them. */
function safetensorsFacts(source: SnapshotFacts, candidates: string[], problems: string[], used: string[]): ModelFacts {
  let index: Index | undefined;
  if (source.index !== undefined) {
    try {
      index = parseIndex(source.index);
    } catch (error) {
      problems.push(`${SAFETENSORS_INDEX}: ${(error as Error).message}`);
      return {};
    }
  }
  const shards = index?.shards ?? candidates;
  const totals: WeightTotals = { parameters: 0, bytes: 0, bytesByDtype: {} };
  const vision: WeightTotals = { parameters: 0, bytes: 0, bytesByDtype: {} };
  const before = problems.length;
  for (const shard of shards) {
    const file = source.files.find((f) => f.path === shard && !f.broken);
    const head = source.heads?.[shard];
    if (!file) problems.push(`${shard}: named by ${SAFETENSORS_INDEX} but missing from the snapshot`);
    else if (!head) problems.push(`${shard}: its header could not be read`);
    else {
      try {
        const tensors = safetensorsTensors(head, file.size);
        addTotals(totals, tensorTotals(tensors));
        addTotals(vision, tensorTotals(tensors.filter(isVisionTensor)));
      } catch (error) {
        problems.push(`${shard}: ${(error as Error).message}`);
      }
    }
  }
  if (problems.length > before) return {};
  if (index?.totalSize !== undefined && index.totalSize !== totals.bytes) {
    problems.push(`${SAFETENSORS_INDEX}: its total_size (${index.totalSize} bytes) differs from the shards' headers (${totals.bytes} bytes)`);
    return {};
  }
  used.push(...(index ? [SAFETENSORS_INDEX] : []), ...shards);
  const dtype = mainDtype(totals.bytesByDtype);
  const visionTower = vision.bytes > 0 ? { vision: { parameters: vision.parameters, weightBytes: vision.bytes } } : {};
  return defined({ parameters: totals.parameters, weightBytes: totals.bytes, dtype: dtype && torchDtype(dtype), ...visionTower });
}

/** Metadata of the first GGUF file (and its adapter facts when it is a LoRA adapter), with parameters and bytes summed over every part of a split model. */
async function ggufFacts(source: SnapshotFacts, paths: string[], problems: string[], used: string[]): Promise<{ facts: ModelFacts; adapter?: AdapterFacts }> {
  let metadata: ModelFacts = {};
  let adapter: AdapterFacts | undefined;
  const totals: WeightTotals = { parameters: 0, bytes: 0, bytesByDtype: {} };
  for (const path of paths) {
    const size = source.files.find((f) => f.path === path)?.size ?? 0;
    const head = source.heads?.[path];
    if (!head) {
      problems.push(`${path}: its header could not be read`);
      return { facts: {} };
    }
    try {
      const parsed = await parseGgufHead(head, size);
      if (path === paths[0]) {
        metadata = ggufMetadataFacts(parsed);
        adapter = ggufAdapterFacts(path, parsed, source.readme, problems);
      }
      addTotals(totals, ggufTotals(parsed, size));
    } catch (error) {
      problems.push(`${path}: ${(error as Error).message}`);
      return { facts: {} };
    }
  }
  used.push(...paths);
  metadata.dtype ??= mainDtype(totals.bytesByDtype);
  return { facts: { ...metadata, parameters: totals.parameters, weightBytes: totals.bytes }, adapter };
}

/** A PEFT adapter's facts: its adapter_config.json and the shapes in its safetensors header (when it could be read). */
function peftFacts(source: SnapshotFacts, file: string, problems: string[], used: string[]): AdapterFacts {
  let config = {};
  try {
    config = parseAdapterConfig(source.adapterConfig ?? "");
    used.push(ADAPTER_CONFIG);
  } catch (error) {
    problems.push(`${ADAPTER_CONFIG}: ${(error as Error).message}`);
  }
  const head = source.heads?.[file];
  const size = source.files.find((f) => f.path === file)?.size ?? 0;
  let tensors;
  try {
    // Its header's problems are those safetensorsFacts reports.
    tensors = head && file.endsWith(".safetensors") ? safetensorsTensors(head, size) : undefined;
  } catch {}
  const shapeProblems: string[] = [];
  const adapter = peftAdapterFacts(file, config, tensors, source.readme, shapeProblems);
  problems.push(...shapeProblems.map((problem) => `${file}: ${problem}`));
  return adapter;
}

/**
 * A snapshot's facts from what the scan read of it (config.json, the index, the weight headers).
 * config.json gives the architecture; the safetensors headers (or the GGUF tensor infos) give the
 * exact parameters, bytes and dtype. A GGUF's metadata fills what config.json does not say.
 */
export async function readModelFacts(source: SnapshotFacts): Promise<FactsReading> {
  const problems: string[] = [];
  const used: string[] = [];
  let fromConfig: ModelFacts = {};
  if (source.config !== undefined) {
    try {
      fromConfig = configFacts(source.config);
      used.push("config.json");
    } catch (error) {
      problems.push(`config.json: ${error instanceof SyntaxError ? "not valid JSON" : (error as Error).message}`);
    }
  }
  const weights = weightFiles(source.files);
  let fromWeights: ModelFacts = {};
  let adapter: AdapterFacts | undefined;
  if (weights?.format === "safetensors") fromWeights = safetensorsFacts(source, weights.paths, problems, used);
  else if (weights?.format === "gguf") {
    const read = await ggufFacts(source, weights.paths, problems, used);
    const { parameters, weightBytes, dtype, quantization, ...shape } = read.facts;
    fromWeights = defined({ ...shape, ...fromConfig, parameters, weightBytes, dtype, quantization: fromConfig.quantization ?? quantization });
    adapter = read.adapter;
  }
  const peft = peftLayout(source.files);
  if (peft?.weights) adapter = peftFacts(source, peft.weights, problems, used);
  const facts: ModelFacts = { ...fromConfig, ...fromWeights, ...(weights && Object.keys(fromWeights).length > 0 ? { weightFormat: weights.format } : {}) };
  if (fromConfig.vision || fromWeights.vision) facts.vision = { ...fromConfig.vision, ...fromWeights.vision };
  if (Object.keys(facts).length === 0 && !adapter) return { problems };
  return { ...(Object.keys(facts).length > 0 ? { facts: { ...facts, files: used } } : {}), ...(adapter ? { adapter } : {}), problems };
}
