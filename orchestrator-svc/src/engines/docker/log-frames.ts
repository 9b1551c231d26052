/**
 * Turns Docker's multiplexed log stream (8-byte header per frame: stream type, 3 zero bytes,
 * big-endian length) into the plain bytes of stdout and stderr, in order.
 */
export function demultiplex(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let buffer = new Uint8Array(0);
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const joined = new Uint8Array(buffer.length + chunk.length);
        joined.set(buffer);
        joined.set(chunk, buffer.length);
        let offset = 0;
        while (joined.length - offset >= 8) {
          const size = new DataView(joined.buffer, joined.byteOffset + offset + 4, 4).getUint32(0);
          if (joined.length - offset - 8 < size) break;
          controller.enqueue(joined.slice(offset + 8, offset + 8 + size));
          offset += 8 + size;
        }
        buffer = joined.slice(offset);
      },
    }),
  );
}
