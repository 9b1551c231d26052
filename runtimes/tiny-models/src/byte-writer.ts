/** Appends little-endian values to a growing buffer; the model files are built in memory. */
export class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length;
    while (size < this.length + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  u8(value: number): this {
    this.reserve(1);
    this.view.setUint8(this.length, value);
    this.length += 1;
    return this;
  }
  i32(value: number): this {
    this.reserve(4);
    this.view.setInt32(this.length, value, true);
    this.length += 4;
    return this;
  }
  u32(value: number): this {
    this.reserve(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
    return this;
  }
  u64(value: number): this {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(value), true);
    this.length += 8;
    return this;
  }
  f32(value: number): this {
    this.reserve(4);
    this.view.setFloat32(this.length, value, true);
    this.length += 4;
    return this;
  }
  bytes(data: Uint8Array): this {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }
  f32s(values: Float32Array): this {
    // Float32Array is host-endian; every supported host (x64, arm64) is little-endian.
    return this.bytes(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }
  padTo(alignment: number): this {
    while (this.length % alignment !== 0) this.u8(0);
    return this;
  }
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
