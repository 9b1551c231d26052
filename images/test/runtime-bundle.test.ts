/**
 * The cluster runtime bundle, made from this installation with packages from the npm registry this
 * machine is configured with: what is in it per architecture, and that its id is what the
 * cluster-side hash script computes from the unpacked files.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUNDLE_LAYOUT, bundleArch, bundleHashScript, NpmPackages, runtimeBundle, SVC_ROOT, type RuntimeBundle } from "../index";

const work = mkdtempSync(join(tmpdir(), "svc-bundle-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const packages = new NpmPackages(join(work, "npm"));
const TASKS = ["text-generation", "speech-recognition"];

async function unpack(bundle: RuntimeBundle, name: string): Promise<string> {
  const dir = join(work, name);
  Bun.spawnSync(["mkdir", "-p", dir]);
  const tar = Bun.spawn(["tar", "-xf", "-", "-C", dir], { stdin: bundle.tar(), stderr: "pipe" });
  expect(await tar.exited).toBe(0);
  return dir;
}

/** The ELF machine field of an executable: 62 x86-64, 183 AArch64. */
const elfMachine = (file: string) => readFileSync(file).readUInt16LE(18);

describe("the runtime bundle", () => {
  test("x64: Bun's baseline build and both runtimes; unpacked, it hashes to its id; its Bun runs", async () => {
    const bundle = await runtimeBundle({ root: SVC_ROOT, arch: "x64", tasks: TASKS, packages });
    expect(bundle.id).toMatch(/^[0-9a-f]{16}$/);
    expect(bundle.info).toMatchObject({ arch: "x64", bunPackage: "@oven/bun-linux-x64-baseline", tasks: TASKS });
    expect(bundle.unavailable).toEqual([]);
    const dir = await unpack(bundle, "x64");
    expect(Bun.spawnSync(["sh", "-c", `echo $(${bundleHashScript(dir)})`]).stdout.toString().trim()).toBe(bundle.id);
    expect(elfMachine(join(dir, BUNDLE_LAYOUT.bun))).toBe(62);
    expect(existsSync(join(dir, BUNDLE_LAYOUT.main("speech-recognition")))).toBe(true);
    expect(existsSync(join(dir, "app/node_modules/@node-llama-cpp/linux-x64"))).toBe(true);
    const version = JSON.parse(readFileSync(join(SVC_ROOT, "node_modules/bun/package.json"), "utf8")).version;
    if (process.arch === "x64") expect(Bun.spawnSync([join(dir, BUNDLE_LAYOUT.bun), "--version"]).stdout.toString().trim()).toBe(version);
    // The same files give the same id; a file that changes gives another.
    expect((await runtimeBundle({ root: SVC_ROOT, arch: "x64", tasks: TASKS, packages })).id).toBe(bundle.id);
    expect((await runtimeBundle({ root: SVC_ROOT, arch: "x64", tasks: ["text-generation"], packages })).id).not.toBe(bundle.id);
    // Damage on the way changes what the cluster computes.
    Bun.spawnSync(["sh", "-c", `echo x >> ${join(dir, BUNDLE_LAYOUT.main("text-generation"))}`]);
    expect(Bun.spawnSync(["sh", "-c", `echo $(${bundleHashScript(dir)})`]).stdout.toString().trim()).not.toBe(bundle.id);
  });

  test("arm64: Bun for aarch64 and the arm64 native modules; a task whose module has no arm64 build is left out, saying why", async () => {
    const bundle = await runtimeBundle({ root: SVC_ROOT, arch: "arm64", tasks: TASKS, packages });
    expect(bundle.info).toMatchObject({ arch: "arm64", bunPackage: "@oven/bun-linux-aarch64" });
    const dir = await unpack(bundle, "arm64");
    expect(elfMachine(join(dir, BUNDLE_LAYOUT.bun))).toBe(183);
    expect(existsSync(join(dir, "app/node_modules/@node-llama-cpp/linux-arm64/package.json"))).toBe(true);
    expect(existsSync(join(dir, "app/node_modules/@node-llama-cpp/linux-x64"))).toBe(false);
    // whisper.node's arm64 package has no build of the version installed here (checked 2026-11: latest 1.1.1, svc uses 1.1.3).
    const whisper = JSON.parse(readFileSync(join(SVC_ROOT, "node_modules/@fugood/whisper.node/package.json"), "utf8")).version;
    if (bundle.info.tasks.includes("speech-recognition")) {
      expect(existsSync(join(dir, "app/node_modules/@fugood/node-whisper-linux-arm64/package.json"))).toBe(true);
    } else {
      expect(bundle.unavailable.map((u) => u.task)).toEqual(["speech-recognition"]);
      expect(bundle.unavailable[0].reason).toStartWith(`speech-recognition needs the arm64 build of a native module, and the npm registry has no @fugood/node-whisper-linux-arm64@${whisper} (latest: `);
      expect(existsSync(join(dir, "app/runtimes/speech-recognition"))).toBe(false);
    }
    expect(bundle.info.tasks).toContain("text-generation");
    expect(Bun.spawnSync(["sh", "-c", `echo $(${bundleHashScript(dir)})`]).stdout.toString().trim()).toBe(bundle.id);
  });

  test("uname -m names: x86_64 and aarch64 (and their other spellings); anything else has no bundle", () => {
    expect(["x86_64", "amd64", "aarch64", "arm64", "ppc64le", "armv7l"].map(bundleArch)).toEqual(["x64", "x64", "arm64", "arm64", undefined, undefined]);
  });
});
