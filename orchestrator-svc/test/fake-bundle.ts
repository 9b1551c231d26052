/**
 * A small runtime bundle for unit tests of the install protocol: a few files, a link and an
 * executable "bun", in the layout and tar form of the real one, with its id computed by the same
 * hash script the cluster runs. `content` varies it (another content, another version).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUNDLE_LAYOUT, bundleHashScript, tarStream, type TarEntry } from "@svc/images";
import type { Bundle } from "../src/engines/slurm/runtime/bundles";

const text = (path: string, body: string, mode = 0o644): TarEntry => {
  const data = new TextEncoder().encode(body);
  return { path, mode, size: data.length, data };
};

export async function fakeBundle(content = "one", options: { bigBytes?: number; failAfterBytes?: number } = {}): Promise<Bundle> {
  const entries: TarEntry[] = [
    text(BUNDLE_LAYOUT.bun, "#!/bin/sh\necho fake bun \"$@\"\n", 0o755),
    text(BUNDLE_LAYOUT.info, `${JSON.stringify({ arch: "x64", tasks: ["text-generation"] })}\n`),
    text(BUNDLE_LAYOUT.main("text-generation"), `// ${content}\n`),
    text("app/runtimes/common/index.ts", "export {};\n"),
    { path: "app/node_modules/@svc/runtime-common", symlink: "../../runtimes/common" },
  ];
  // Incompressible filler, so an upload takes long enough to be cut off midway.
  if (options.bigBytes) {
    const filler = new Uint8Array(options.bigBytes);
    for (let offset = 0; offset < filler.length; offset += 65536) crypto.getRandomValues(filler.subarray(offset, Math.min(filler.length, offset + 65536)));
    entries.push({ path: "app/filler.bin", mode: 0o644, size: filler.length, data: filler });
  }
  const dir = mkdtempSync(join(tmpdir(), "svc-fake-bundle-"));
  try {
    const untar = Bun.spawn(["tar", "-xf", "-", "-C", dir], { stdin: tarStream(entries) });
    if ((await untar.exited) !== 0) throw new Error("the fake bundle does not unpack");
    const id = Bun.spawnSync(["sh", "-c", bundleHashScript(dir)]).stdout.toString().trim();
    const tar = () => {
      const stream = tarStream(entries);
      if (options.failAfterBytes === undefined) return stream;
      let sent = 0;
      return stream.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            sent += chunk.length;
            if (sent > options.failAfterBytes!) controller.error(new Error("the connection dropped"));
            else controller.enqueue(chunk);
          },
        }),
      );
    };
    return { id, arch: "x64", tasks: ["text-generation"], unavailable: [], tarBytes: 0, tar, layout: BUNDLE_LAYOUT, hashScript: bundleHashScript };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
