import { createHash } from "node:crypto";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/**
 * Generators of Hugging Face hub caches (`models--<owner>--<name>/{blobs,refs,snapshots}`) for
 * discovery tests and the bench. Files go to blobs/<sha256> with relative links from the snapshot,
 * as huggingface_hub lays them out.
 */

export interface CacheFile {
  path: string;
  content: string | Uint8Array;
}

export const commitOf = (seed: string) => createHash("sha1").update(seed).digest("hex");

export function repoDir(modelsDir: string, repo: string): string {
  const [owner, name] = repo.split("/");
  return join(modelsDir, `models--${owner}--${name}`);
}

/** Writes one snapshot of `repo` at `commit`; `refs` are branch names to point at it. Returns the snapshot folder. */
export function writeCachedSnapshot(modelsDir: string, repo: string, commit: string, files: CacheFile[], refs: string[] = []): string {
  const dir = repoDir(modelsDir, repo);
  const snapshot = join(dir, "snapshots", commit);
  mkdirSync(join(dir, "blobs"), { recursive: true });
  mkdirSync(snapshot, { recursive: true });
  for (const file of files) {
    const bytes = typeof file.content === "string" ? Buffer.from(file.content) : file.content;
    const blob = join(dir, "blobs", createHash("sha256").update(bytes).digest("hex"));
    if (!existsSync(blob)) writeFileSync(blob, bytes);
    const link = join(snapshot, file.path);
    mkdirSync(dirname(link), { recursive: true });
    if (!existsSync(link)) symlinkSync(relative(dirname(link), blob), link);
  }
  for (const ref of refs) {
    mkdirSync(dirname(join(dir, "refs", ref)), { recursive: true });
    writeFileSync(join(dir, "refs", ref), commit);
  }
  return snapshot;
}

export const files = {
  causalLm: (arch = "LlamaForCausalLM"): CacheFile[] => [
    { path: "config.json", content: JSON.stringify({ architectures: [arch], model_type: "llama" }) },
    { path: "model.safetensors", content: "weights" },
  ],
  whisper: (): CacheFile[] => [
    { path: "config.json", content: JSON.stringify({ architectures: ["WhisperForConditionalGeneration"], model_type: "whisper" }) },
    { path: "model.safetensors", content: "weights-w" },
  ],
  cardOnly: (tag: string): CacheFile[] => [{ path: "README.md", content: `---\nlicense: mit\npipeline_tag: ${tag}\n---\n# A model\n` }],
  gguf: (): CacheFile[] => [{ path: "tiny-q8_0.gguf", content: new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0, 1, 2, 3]) }],
  ggmlWhisper: (): CacheFile[] => [{ path: "ggml-tiny.bin", content: new Uint8Array([0x6c, 0x6d, 0x67, 0x67, 1, 0, 0, 0]) }],
  bert: (): CacheFile[] => [
    { path: "config.json", content: JSON.stringify({ architectures: ["BertModel"], model_type: "bert" }) },
    { path: "README.md", content: "---\npipeline_tag: fill-mask\n---\n" },
  ],
};
