import { ByteWriter } from "./byte-writer";

/** Metadata values of a GGUF file, tagged with their GGUF type. */
export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: string[] }
  | { type: "f32[]"; value: number[] }
  | { type: "i32[]"; value: number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the first dimension is the one that varies fastest. */
  shape: number[];
  data: Float32Array;
}

const ALIGNMENT = 32;
const GGUF_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const GGML_TYPE_F32 = 0;
const encoder = new TextEncoder();

function writeString(out: ByteWriter, text: string): void {
  const bytes = encoder.encode(text);
  out.u64(bytes.length).bytes(bytes);
}

function writeValue(out: ByteWriter, entry: GgufValue): void {
  switch (entry.type) {
    case "u32":
      out.u32(GGUF_TYPE.u32).u32(entry.value);
      return;
    case "f32":
      out.u32(GGUF_TYPE.f32).f32(entry.value);
      return;
    case "bool":
      out.u32(GGUF_TYPE.bool).u8(entry.value ? 1 : 0);
      return;
    case "string":
      out.u32(GGUF_TYPE.string);
      writeString(out, entry.value);
      return;
    case "string[]":
      out.u32(GGUF_TYPE.array).u32(GGUF_TYPE.string).u64(entry.value.length);
      for (const item of entry.value) writeString(out, item);
      return;
    case "f32[]":
      out.u32(GGUF_TYPE.array).u32(GGUF_TYPE.f32).u64(entry.value.length);
      for (const item of entry.value) out.f32(item);
      return;
    case "i32[]":
      out.u32(GGUF_TYPE.array).u32(GGUF_TYPE.i32).u64(entry.value.length);
      for (const item of entry.value) out.i32(item);
      return;
  }
}

/** Serialises a GGUF v3 file (all tensors F32), the format llama.cpp loads. */
export function writeGguf(metadata: Record<string, GgufValue>, tensors: GgufTensor[]): Uint8Array {
  const out = new ByteWriter();
  out.bytes(encoder.encode("GGUF")).u32(3).u64(tensors.length).u64(Object.keys(metadata).length);
  for (const [key, entry] of Object.entries(metadata)) {
    writeString(out, key);
    writeValue(out, entry);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const elements = tensor.shape.reduce((a, b) => a * b, 1);
    if (elements !== tensor.data.length) throw new Error(`tensor ${tensor.name}: shape ${tensor.shape} does not match ${tensor.data.length} values`);
    writeString(out, tensor.name);
    out.u32(tensor.shape.length);
    for (const dim of tensor.shape) out.u64(dim);
    out.u32(GGML_TYPE_F32).u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) out.f32s(tensor.data).padTo(ALIGNMENT);
  return out.toBytes();
}
