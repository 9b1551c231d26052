import { afterAll, expect, test } from "bun:test";
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { makeTinyModels } from "../src";

const cacheDirs: string[] = [];
const freshCache = () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-tiny-models-"));
  cacheDirs.push(dir);
  return dir;
};
afterAll(() => cacheDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test("the models are laid out as Hugging Face cache snapshots", () => {
  const cache = freshCache();
  const models = makeTinyModels(cache);
  for (const snapshot of Object.values(models)) {
    const repoDir = dirname(dirname(snapshot));
    expect(basename(repoDir)).toMatch(/^models--svc-tiny--[\w-]+$/);
    expect(basename(snapshot)).toMatch(/^[0-9a-f]{40}$/);
    expect(readFileSync(join(repoDir, "refs", "main"), "utf8")).toBe(basename(snapshot));
    for (const file of readdirSync(snapshot)) {
      const link = join(snapshot, file);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toMatch(/^\.\.\/\.\.\/blobs\/[0-9a-f]{64}$/);
    }
  }
  expect(readFileSync(join(models.textGeneration, "tiny-llama-f32.gguf")).subarray(0, 4).toString()).toBe("GGUF");
  expect(readFileSync(join(models.speechRecognition, "ggml-tiny-svc.bin")).readUInt32LE(0)).toBe(0x67676d6c);
});

test("generation is deterministic and idempotent", () => {
  const [a, b] = [freshCache(), freshCache()];
  const first = makeTinyModels(a);
  const again = makeTinyModels(a);
  expect(again).toEqual(first);
  const elsewhere = makeTinyModels(b);
  expect(basename(elsewhere.textGeneration)).toBe(basename(first.textGeneration));
  expect(Object.values(elsewhere).map((dir) => basename(dir))).toEqual(Object.values(first).map((dir) => basename(dir)));
});

test("bun run make-tiny-models prints every snapshot folder", () => {
  const cache = freshCache();
  const root = new URL("../../..", import.meta.url).pathname;
  const run = Bun.spawnSync(["bun", "run", "make-tiny-models", cache], { cwd: root, stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(0);
  const models = makeTinyModels(cache);
  expect(run.stdout.toString()).toBe(
    [
      `text-generation    ${models.textGeneration}`,
      `speech-recognition ${models.speechRecognition}`,
      `text-generation    ${models.textGenerationSafetensors}`,
      `adapter (GGUF)     ${models.loraGguf}`,
      `adapter (PEFT)     ${models.loraPeft}`,
      "",
    ].join("\n"),
  );
  const usage = Bun.spawnSync(["bun", "run", "make-tiny-models"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  expect(usage.exitCode).toBe(2);
  expect(usage.stderr.toString()).toContain("usage");
});
