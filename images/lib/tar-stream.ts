/**
 * A POSIX tar archive (ustar, with pax records for names longer than ustar holds) written as a
 * stream, file by file, so a tree of any size goes out without being staged or held in memory.
 * Entries carry no owner and a fixed time: the same entries always give the same bytes.
 */

export type TarEntry =
  | { path: string; mode: number; size: number; source: string }
  | { path: string; mode: number; size: number; data: Uint8Array }
  | { path: string; symlink: string };

const BLOCK = 512;
const encoder = new TextEncoder();

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0");
}

function header(name: string, options: { mode: number; size: number; type: string; linkname?: string }): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => block.set(encoder.encode(text), offset);
  put(0, name);
  put(100, `${octal(options.mode, 8)}\0`);
  put(108, `${octal(0, 8)}\0`);
  put(116, `${octal(0, 8)}\0`);
  put(124, `${octal(options.size, 12)}\0`);
  put(136, `${octal(0, 12)}\0`);
  put(148, "        ");
  put(156, options.type);
  if (options.linkname) put(157, options.linkname);
  put(257, "ustar\0");
  put(263, "00");
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, `${octal(sum, 7)}\0 `);
  return block;
}

/** A pax record "<length> <key>=<value>\n", whose length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = encoder.encode(body).length;
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
  return `${length}${body}`;
}

const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
const fits = (text: string) => encoder.encode(text).length <= 100;

/** The header blocks of one entry: a pax header first when its path or link does not fit ustar. */
function headers(entry: TarEntry): Uint8Array[] {
  const symlink = "symlink" in entry ? entry.symlink : undefined;
  const records = [...(fits(entry.path) ? [] : [paxRecord("path", entry.path)]), ...(symlink === undefined || fits(symlink) ? [] : [paxRecord("linkpath", symlink)])];
  const blocks: Uint8Array[] = [];
  if (records.length > 0) {
    const pax = encoder.encode(records.join(""));
    blocks.push(header("././@PaxHeader", { mode: 0o644, size: pax.length, type: "x" }), pax, padding(pax.length));
  }
  const shortName = fits(entry.path) ? entry.path : entry.path.slice(-99).replace(/^[^/]*\//, "");
  if ("symlink" in entry) blocks.push(header(shortName, { mode: 0o777, size: 0, type: "2", linkname: fits(entry.symlink) ? entry.symlink : "" }));
  else blocks.push(header(shortName, { mode: entry.mode, size: entry.size, type: "0" }));
  return blocks;
}

/** The size in bytes of the archive `tarStream(entries)` writes. */
export function tarSize(entries: TarEntry[]): number {
  let size = BLOCK * 2;
  for (const entry of entries) {
    size += headers(entry).reduce((sum, block) => sum + block.length, 0);
    if (!("symlink" in entry)) size += entry.size + padding(entry.size).length;
  }
  return size;
}

/**
 * The archive of `entries`, in their order. A file whose size changed since it was listed makes
 * the stream fail rather than produce an archive that says one thing and holds another.
 */
export function tarStream(entries: TarEntry[]): ReadableStream<Uint8Array> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const entry of entries) {
      yield* headers(entry);
      if ("symlink" in entry) continue;
      if ("data" in entry) {
        yield entry.data;
      } else {
        let sent = 0;
        for await (const chunk of Bun.file(entry.source).stream() as unknown as AsyncIterable<Uint8Array>) {
          sent += chunk.length;
          yield chunk;
        }
        if (sent !== entry.size) throw new Error(`${entry.source} changed while it was being sent (${sent} bytes, expected ${entry.size})`);
      }
      yield padding(entry.size);
    }
    yield new Uint8Array(BLOCK * 2);
  }
  const iterator = chunks();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await iterator.next();
        if (done) return controller.close();
        if (value.length > 0) return controller.enqueue(value);
      }
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}
