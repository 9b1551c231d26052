import type { ModelFacts } from "@svc/contracts";
import type { SnapshotFacts } from "../discovery/types";
import { configFacts, defined } from "./config";
import { ggufMetadataFacts, ggufTotals, parseGgufHead } from "./gguf";
import { addTotals, mainDtype, safetensorsTotals, torchDtype, type WeightTotals } from "./safetensors";
import { SAFETENSORS_INDEX, weightFiles } from "./weight-files";

export interface FactsReading {
  /** Absent when the files say nothing. */
  facts?: ModelFacts;
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

/** Parameters and bytes of the safetensors shards (those the index names, else every top-level file). */
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
  const before = problems.length;
  for (const shard of shards) {
    const file = source.files.find((f) => f.path === shard && !f.broken);
    const head = source.heads?.[shard];
    if (!file) problems.push(`${shard}: named by ${SAFETENSORS_INDEX} but missing from the snapshot`);
    else if (!head) problems.push(`${shard}: its header could not be read`);
    else {
      try {
        addTotals(totals, safetensorsTotals(head, file.size));
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
  return defined({ parameters: totals.parameters, weightBytes: totals.bytes, dtype: dtype && torchDtype(dtype) });
}

/** Metadata of the first GGUF file, with parameters and bytes summed over every part of a split model. */
async function ggufFacts(source: SnapshotFacts, paths: string[], problems: string[], used: string[]): Promise<ModelFacts> {
  let metadata: ModelFacts = {};
  const totals: WeightTotals = { parameters: 0, bytes: 0, bytesByDtype: {} };
  for (const path of paths) {
    const size = source.files.find((f) => f.path === path)?.size ?? 0;
    const head = source.heads?.[path];
    if (!head) {
      problems.push(`${path}: its header could not be read`);
      return {};
    }
    try {
      const parsed = await parseGgufHead(head, size);
      if (path === paths[0]) metadata = ggufMetadataFacts(parsed);
      addTotals(totals, ggufTotals(parsed, size));
    } catch (error) {
      problems.push(`${path}: ${(error as Error).message}`);
      return {};
    }
  }
  used.push(...paths);
  metadata.dtype ??= mainDtype(totals.bytesByDtype);
  return { ...metadata, parameters: totals.parameters, weightBytes: totals.bytes };
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
  if (weights?.format === "safetensors") fromWeights = safetensorsFacts(source, weights.paths, problems, used);
  else if (weights?.format === "gguf") {
    const { parameters, weightBytes, dtype, quantization, ...shape } = await ggufFacts(source, weights.paths, problems, used);
    fromWeights = defined({ ...shape, ...fromConfig, parameters, weightBytes, dtype, quantization: fromConfig.quantization ?? quantization });
  }
  const facts: ModelFacts = { ...fromConfig, ...fromWeights };
  if (Object.keys(facts).length === 0) return { problems };
  return { facts: { ...facts, files: used }, problems };
}
