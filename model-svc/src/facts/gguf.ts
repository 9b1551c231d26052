import type { GGUFParseOutput } from "@huggingface/gguf";
import type { ModelFacts } from "@svc/contracts";
import { defined } from "./config";
import type { WeightTotals } from "./safetensors";

/** How much of a GGUF file is read for its metadata and tensor infos (the tokenizer makes most of it). */
export const GGUF_HEAD_LIMIT = 16 * 1024 * 1024;

/** Matches the first file of a split GGUF model, `<prefix>-00001-of-<total>.gguf`. */
export const GGUF_FIRST_SHARD = /^(.*)-00001-of-(\d{5})\.gguf$/;

export class GgufError extends Error {
  override name = "GgufError";
}

/**
 * @huggingface/gguf, loaded by the first parse rather than with model-svc (it loads @huggingface/tasks
 * too: ~30 ms of every start). What reads a parse's types uses the module that parse loaded.
 */
let ggufModule: typeof import("@huggingface/gguf") | undefined;
const parsedWith = () => {
  if (!ggufModule) throw new Error("a GGUF parse comes from parseGgufHead, which loads @huggingface/gguf");
  return ggufModule;
};

/** File types that are plain floats: not a quantization. */
const FLOAT_TYPES = new Set(["F32", "F16", "BF16"]);

/**
 * Parses a GGUF file's metadata and tensor infos from its first bytes with @huggingface/gguf, which
 * reads through `fetch` with Range requests: here a fetch that answers from the bytes already read
 * (locally or in the one SSH command), with the file's true size as Content-Range total.
 */
export async function parseGgufHead(head: Uint8Array, fileSize: number): Promise<GGUFParseOutput & { parameterCount: number }> {
  const fromHead = (async (_url: string | URL | Request, init?: RequestInit) => {
    const range = /bytes=(\d+)-(\d+)/.exec(String(new Headers(init?.headers).get("range")));
    const start = Number(range?.[1] ?? 0);
    const end = Math.min(Number(range?.[2] ?? head.length - 1) + 1, head.length);
    return new Response(head.slice(Math.min(start, end), end), { status: 206, headers: { "content-range": `bytes ${start}-${Math.max(start, end - 1)}/${fileSize}` } });
  }) as typeof fetch;
  const tooLong = () => new GgufError(`its metadata is longer than the ${head.length} bytes svc reads`);
  let parsed: GGUFParseOutput & { parameterCount: number };
  const { gguf } = (ggufModule ??= await import("@huggingface/gguf"));
  try {
    parsed = await gguf("http://svc.invalid/model.gguf", { fetch: fromHead, computeParametersCount: true });
  } catch (error) {
    if (head.length < fileSize && error instanceof RangeError) throw tooLong();
    throw new GgufError((error as Error).message.replace(/^not a valid gguf file: /, "not a GGUF file: "));
  }
  // The reader pads what it fetched with zeros and reads on: a parse that went past the bytes it had read garbage.
  if (parsed.tensorInfoByteRange[1] > head.length) {
    if (head.length < fileSize) throw tooLong();
    throw new GgufError("the file ends inside its metadata");
  }
  return parsed;
}

/** Data bytes per tensor type: each tensor's data runs to the next one's offset (the last one to the end of the file). */
function bytesByType(parsed: GGUFParseOutput, fileSize: number): Record<string, number> {
  const tensors = [...parsed.tensorInfos].sort((a, b) => (a.offset < b.offset ? -1 : 1));
  const dataSize = fileSize - Number(parsed.tensorDataOffset);
  const bytes: Record<string, number> = {};
  tensors.forEach((tensor, i) => {
    const end = i + 1 < tensors.length ? Number(tensors[i + 1].offset) : dataSize;
    const type = parsedWith().GGMLQuantizationType[tensor.dtype] ?? String(tensor.dtype);
    bytes[type] = (bytes[type] ?? 0) + end - Number(tensor.offset);
  });
  return bytes;
}

/** Totals of one GGUF file: parameters from its tensor infos, bytes = its tensor data region. */
export function ggufTotals(parsed: GGUFParseOutput & { parameterCount: number }, fileSize: number): WeightTotals {
  const bytes = fileSize - Number(parsed.tensorDataOffset);
  if (bytes < 0) throw new GgufError(`its tensor data would start after the end of the file`);
  return { parameters: parsed.parameterCount, bytes, bytesByDtype: bytesByType(parsed, fileSize) };
}

const num = (value: unknown): number | undefined => {
  const n = typeof value === "bigint" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/** The architecture facts of a GGUF file's metadata (`general.*` and `<arch>.*` keys). */
export function ggufMetadataFacts(parsed: GGUFParseOutput): ModelFacts {
  const metadata = parsed.metadata as Record<string, unknown>;
  const arch = typeof metadata["general.architecture"] === "string" ? (metadata["general.architecture"] as string) : undefined;
  const key = (name: string) => (arch ? num(metadata[`${arch}.${name}`]) : undefined);
  const facts: ModelFacts = {
    architecture: arch,
    layers: key("block_count"),
    hiddenSize: key("embedding_length"),
    intermediateSize: key("feed_forward_length"),
    attentionHeads: key("attention.head_count"),
    kvHeads: key("attention.head_count_kv") ?? key("attention.head_count"),
    headDim: key("attention.key_length"),
    contextLength: key("context_length"),
    slidingWindow: key("attention.sliding_window"),
    experts: key("expert_count"),
    expertsPerToken: key("expert_used_count"),
    kvLoraRank: key("attention.kv_lora_rank"),
    vocabSize: key("vocab_size") ?? (Array.isArray(metadata["tokenizer.ggml.tokens"]) ? (metadata["tokenizer.ggml.tokens"] as unknown[]).length : undefined),
  };
  if (facts.kvLoraRank !== undefined) facts.qkRopeHeadDim = key("rope.dimension_count");
  if (facts.headDim === undefined && facts.hiddenSize && facts.attentionHeads && facts.hiddenSize % facts.attentionHeads === 0) facts.headDim = facts.hiddenSize / facts.attentionHeads;
  const fileType = num(metadata["general.file_type"]);
  const typeName = fileType === undefined ? undefined : parsedWith().GGMLFileQuantizationType[fileType];
  if (typeName) {
    facts.dtype = typeName;
    if (!FLOAT_TYPES.has(typeName)) facts.quantization = typeName;
  }
  return defined(facts);
}
