import type { SnapshotFile } from "../discovery/types";
import { GGUF_FIRST_SHARD, GGUF_HEAD_LIMIT } from "./gguf";
import { SAFETENSORS_HEADER_LIMIT } from "./safetensors";

/**
 * Which files of a snapshot the model facts are read from, and how much of each. The local scan
 * reads exactly these; the remote scan script (scan-remote.ts) selects the same files in sh.
 */

export const SAFETENSORS_INDEX = "model.safetensors.index.json";
/** Read limit of the index (a 405B model's is about 100 KB). */
export const INDEX_READ_LIMIT = 16 * 1024 * 1024;
/** The most of a safetensors file read: the 8-byte length and the largest header the format allows. */
export const SAFETENSORS_READ_LIMIT = 8 + SAFETENSORS_HEADER_LIMIT;

/**
 * Files whose names and sizes make up the facts' cache key: the facts are read again when one of
 * them changes (an adapter's facts come from adapter_config.json and the model card's base_model too).
 */
export const FACTS_SOURCE_FILES = ["config.json", SAFETENSORS_INDEX, "adapter_config.json", "README.md"] as const;
export const isFactsSource = (path: string) =>
  !path.includes("/") && ((FACTS_SOURCE_FILES as readonly string[]).includes(path) || path.endsWith(".safetensors") || path.endsWith(".gguf"));

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The weight files whose headers are read: every top-level `*.safetensors` (the index, when there
 * is one, says which of them make the model); else the first top-level `*.gguf` by name (the one
 * the text-generation runtime loads) and, when it is the first part of a split model, its other parts.
 */
export function weightFiles(files: SnapshotFile[]): { format: "safetensors" | "gguf"; paths: string[] } | undefined {
  const top = files.filter((f) => !f.broken && !f.path.includes("/")).map((f) => f.path).sort(byName);
  const safetensors = top.filter((path) => path.endsWith(".safetensors"));
  if (safetensors.length > 0) return { format: "safetensors", paths: safetensors };
  const first = top.find((path) => path.endsWith(".gguf"));
  if (!first) return undefined;
  const split = GGUF_FIRST_SHARD.exec(first);
  if (!split) return { format: "gguf", paths: [first] };
  const part = new RegExp(`^${split[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-\\d{5}-of-${split[2]}\\.gguf$`);
  return { format: "gguf", paths: top.filter((path) => part.test(path)) };
}

export const headLimit = (format: "safetensors" | "gguf") => (format === "gguf" ? GGUF_HEAD_LIMIT : SAFETENSORS_READ_LIMIT);
