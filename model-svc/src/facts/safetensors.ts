/**
 * Safetensors headers: an 8-byte little-endian length N, then N bytes of JSON naming each tensor's
 * dtype, shape and `data_offsets` (relative to the data region that follows). Only these bytes are
 * ever read: the weights themselves are not.
 */

/** The format's own limit on the header (safetensors refuses larger ones). */
export const SAFETENSORS_HEADER_LIMIT = 100_000_000;

/** Bytes per element of the dtypes whose size is whole bytes; a tensor of another dtype is not checked against its shape. */
const ELEMENT_BYTES: Record<string, number> = {
  F64: 8, I64: 8, U64: 8, F32: 4, I32: 4, U32: 4, F16: 2, BF16: 2, I16: 2, U16: 2,
  I8: 1, U8: 1, BOOL: 1, F8_E4M3: 1, F8_E5M2: 1, F8_E8M0: 1,
};

/** Safetensors dtype names as config.json's `torch_dtype` spells them. */
const TORCH_NAMES: Record<string, string> = {
  F64: "float64", F32: "float32", F16: "float16", BF16: "bfloat16", F8_E4M3: "float8_e4m3fn", F8_E5M2: "float8_e5m2",
  I64: "int64", I32: "int32", I16: "int16", I8: "int8", U8: "uint8", BOOL: "bool",
};
export const torchDtype = (dtype: string) => TORCH_NAMES[dtype] ?? dtype.toLowerCase();

export interface WeightTotals {
  /** Sum of the tensors' element counts. */
  parameters: number;
  /** Sum of the tensors' data sizes. */
  bytes: number;
  /** Data bytes per dtype. */
  bytesByDtype: Record<string, number>;
}

export class HeaderError extends Error {
  override name = "HeaderError";
}

/** The header length a file's first 8 bytes announce. */
export function headerLength(head: Uint8Array): number {
  if (head.length < 8) throw new HeaderError(`shorter than the 8-byte header length (${head.length} bytes)`);
  const length = Buffer.from(head.buffer, head.byteOffset, 8).readBigUInt64LE(0);
  if (length > BigInt(SAFETENSORS_HEADER_LIMIT)) throw new HeaderError(`its header length (${length} bytes) is larger than the format allows`);
  return Number(length);
}

/** One tensor of a safetensors header. */
export interface SafetensorsEntry {
  name: string;
  dtype: string;
  /** PyTorch order. */
  shape: number[];
  /** Bytes of its data. */
  bytes: number;
}

/**
 * Reads the tensors of one file from its first bytes (`head`: length + header, at least) and checks
 * them against the file's size: every tensor's data lies within the file, and its byte count
 * matches its shape where the dtype's size is known. Throws a HeaderError saying what is wrong.
 */
export function safetensorsTensors(head: Uint8Array, fileSize: number): SafetensorsEntry[] {
  const length = headerLength(head);
  if (head.length < 8 + length) throw new HeaderError(`the file ends inside its ${length}-byte header`);
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(head.buffer, head.byteOffset + 8, length).toString("utf8"));
  } catch {
    throw new HeaderError("its header is not valid JSON");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) throw new HeaderError("its header is not a JSON object");
  const dataSize = fileSize - 8 - length;
  const tensors: SafetensorsEntry[] = [];
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") continue;
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
    if (typeof dtype !== "string" || !Array.isArray(shape) || !shape.every(isCount) || !Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) {
      throw new HeaderError(`tensor ${JSON.stringify(name)} has no valid dtype, shape and data_offsets`);
    }
    const [start, end] = offsets as [number, number];
    if (end < start || end > dataSize) throw new HeaderError(`tensor ${JSON.stringify(name)} lies outside the file's data (${start}–${end} of ${Math.max(dataSize, 0)} bytes)`);
    const elements = (shape as number[]).reduce((a, b) => a * b, 1);
    const size = ELEMENT_BYTES[dtype];
    if (size !== undefined && elements * size !== end - start) throw new HeaderError(`tensor ${JSON.stringify(name)}: shape [${shape.join(", ")}] of ${dtype} is ${elements * size} bytes, its offsets span ${end - start}`);
    tensors.push({ name, dtype, shape: shape as number[], bytes: end - start });
  }
  return tensors;
}

/** Totals of some tensors. */
export function tensorTotals(tensors: SafetensorsEntry[]): WeightTotals {
  const totals: WeightTotals = { parameters: 0, bytes: 0, bytesByDtype: {} };
  for (const tensor of tensors) {
    totals.parameters += tensor.shape.reduce((a, b) => a * b, 1);
    totals.bytes += tensor.bytes;
    totals.bytesByDtype[tensor.dtype] = (totals.bytesByDtype[tensor.dtype] ?? 0) + tensor.bytes;
  }
  return totals;
}

/** Adds `b` into `a`. */
export function addTotals(a: WeightTotals, b: WeightTotals): WeightTotals {
  a.parameters += b.parameters;
  a.bytes += b.bytes;
  for (const [dtype, bytes] of Object.entries(b.bytesByDtype)) a.bytesByDtype[dtype] = (a.bytesByDtype[dtype] ?? 0) + bytes;
  return a;
}

/** The dtype holding the most bytes. */
export function mainDtype(bytesByDtype: Record<string, number>): string | undefined {
  return Object.entries(bytesByDtype).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}
