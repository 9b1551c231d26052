import { ByteWriter } from "./byte-writer";

export interface SafetensorsTensor {
  name: string;
  /** PyTorch order: the last dimension is the one that varies fastest (a GGUF shape reversed). */
  shape: number[];
  data: Float32Array;
}

/**
 * Serialises a safetensors file (all tensors F32): the 8-byte little-endian header length, the
 * JSON header (dtype, shape, data_offsets per tensor, `__metadata__`), padded with spaces to 8
 * bytes as the reference writer does, then the tensors' bytes in order.
 */
export function writeSafetensors(tensors: SafetensorsTensor[], metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: "pt", ...metadata } };
  let offset = 0;
  for (const tensor of tensors) {
    const elements = tensor.shape.reduce((a, b) => a * b, 1);
    if (elements !== tensor.data.length) throw new Error(`tensor ${tensor.name}: shape ${tensor.shape} does not match ${tensor.data.length} values`);
    header[tensor.name] = { dtype: "F32", shape: tensor.shape, data_offsets: [offset, offset + tensor.data.byteLength] };
    offset += tensor.data.byteLength;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (json.length % 8)) % 8);
  const out = new ByteWriter().u64(json.length).bytes(new TextEncoder().encode(json));
  for (const tensor of tensors) out.f32s(tensor.data);
  return out.toBytes();
}
