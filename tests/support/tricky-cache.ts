import { chmodSync, mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitOf, files, repoDir, writeCachedSnapshot } from "./hf-cache";

/**
 * A profile's two model folders (home/models and cache/models) with the cases discovery must get
 * right. `expected` lists the rows it must find; the other cases must come out as issues.
 */
export function makeTrickyCache(base: string) {
  const home = join(base, "home", "models");
  const cache = join(base, "cache", "models");
  mkdirSync(home, { recursive: true });
  mkdirSync(cache, { recursive: true });
  const c = (label: string) => commitOf(label);
  const snap = (root: string, repo: string, label: string, fileList = files.causalLm(), refs: string[] = []) =>
    writeCachedSnapshot(root, repo, c(label), fileList, refs);

  // `--` inside the model name, three revisions (two refs, one without).
  snap(home, "org/my--model", "mm-1", files.causalLm("MistralForCausalLM"), ["main"]);
  snap(home, "org/my--model", "mm-2", [...files.causalLm("GPT2LMHeadModel"), { path: "extra/notes.txt", content: "x" }], ["refs/pr/1"]);
  snap(cache, "org/my--model", "mm-3");
  // One kind of evidence each.
  snap(cache, "openai/whisper-tiny", "wt", files.whisper(), ["main"]);
  snap(cache, "acme/card-asr", "ca", files.cardOnly("automatic-speech-recognition"));
  snap(home, "acme/card-llm", "cl", files.cardOnly("text-generation"));
  snap(home, "acme/tiny-gguf", "tg", files.gguf(), ["main"]);
  snap(cache, "ggerganov/whisper.cpp", "wc", files.ggmlWhisper());
  // The same snapshot in home and cache: registered once, from home.
  snap(home, "acme/both", "both", files.causalLm());
  snap(cache, "acme/both", "both", files.causalLm());
  // Not classifiable: reported.
  snap(home, "google/bert-base", "bert", files.bert());
  // A ref without its snapshot.
  mkdirSync(join(repoDir(home, "acme/ghost"), "refs"), { recursive: true });
  writeFileSync(join(repoDir(home, "acme/ghost"), "refs", "main"), c("ghost"));
  // An empty snapshot folder.
  mkdirSync(join(repoDir(home, "acme/empty"), "snapshots", c("empty")), { recursive: true });
  // A link to a blob that is gone.
  const broken = snap(home, "acme/broken", "broken", files.causalLm());
  writeCachedSnapshot(home, "acme/broken", c("broken"), [{ path: "model-2.safetensors", content: "gone" }]);
  rmSync(join(broken, readlinkSync(join(broken, "model-2.safetensors"))));
  // A download svc has not finished.
  snap(home, "acme/partial", "partial", files.causalLm());
  writeFileSync(join(repoDir(home, "acme/partial"), `.svc-partial-${c("partial")}`), "");
  // A snapshot folder that is not a commit id, a folder without owner, and things to ignore.
  mkdirSync(join(repoDir(cache, "acme/odd"), "snapshots", "not-a-commit"), { recursive: true });
  writeFileSync(join(repoDir(cache, "acme/odd"), "snapshots", "not-a-commit", "config.json"), "{}");
  snap(cache, "gpt2/x", "legacy"); // renamed below to models--gpt2
  renameSync(repoDir(cache, "gpt2/x"), join(cache, "models--gpt2"));
  mkdirSync(join(cache, "datasets--acme--data", "snapshots"), { recursive: true });
  mkdirSync(join(cache, ".locks", "models--acme--x"), { recursive: true });
  writeFileSync(join(cache, "version.txt"), "1");
  // Unreadable for anyone but root: a repo folder and one snapshot.
  snap(home, "acme/locked", "locked");
  snap(home, "acme/locked-snap", "ls1");
  snap(home, "acme/locked-snap", "ls2", files.whisper());
  chmodSync(repoDir(home, "acme/locked"), 0o000);
  chmodSync(join(repoDir(home, "acme/locked-snap"), "snapshots", c("ls2")), 0o000);

  const row = (repo: string, label: string, image: string, root: string) => ({
    repo,
    revision: c(label),
    image,
    modelDir: join(repoDir(root, repo), "snapshots", c(label)),
  });
  /** Rows every reader finds (root or not). */
  const expected = [
    row("org/my--model", "mm-1", "text-generation", home),
    row("org/my--model", "mm-2", "text-generation", home),
    row("org/my--model", "mm-3", "text-generation", cache),
    row("openai/whisper-tiny", "wt", "speech-recognition", cache),
    row("acme/card-asr", "ca", "speech-recognition", cache),
    row("acme/card-llm", "cl", "text-generation", home),
    row("acme/tiny-gguf", "tg", "text-generation", home),
    row("ggerganov/whisper.cpp", "wc", "speech-recognition", cache),
    row("acme/both", "both", "text-generation", home),
    row("acme/locked-snap", "ls1", "text-generation", home),
  ];
  /** Rows only root finds (the folders above are unreadable to others). */
  const rootOnly = [row("acme/locked", "locked", "text-generation", home), row("acme/locked-snap", "ls2", "speech-recognition", home)];
  return { home, cache, roots: [home, cache], expected, rootOnly, commit: c };
}

/**
 * A model folder whose snapshot holds symlink loops (links to itself, to its parent, and a deeper
 * one back up) and whose refs/ links back to refs/: a walk that follows them blindly never ends.
 * The snapshot is otherwise a complete GGUF model, so a scan must still register it.
 */
export function makeLoopingCache(modelsDir: string) {
  const repo = "acme/looping";
  const commit = commitOf("looping");
  const snapshot = writeCachedSnapshot(modelsDir, repo, commit, files.gguf(), ["main"]);
  for (const name of ["self", "again", "and-again"]) symlinkSync(".", join(snapshot, name));
  symlinkSync("..", join(snapshot, "parent"));
  mkdirSync(join(snapshot, "deeper"));
  symlinkSync("../..", join(snapshot, "deeper", "back-up"));
  symlinkSync(".", join(repoDir(modelsDir, repo), "refs", "loop"));
  return { repo, commit, snapshot };
}
