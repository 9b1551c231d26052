import { describe, expect, test } from "bun:test";
import { describeFilePatterns } from "@svc/contracts";
import { fnmatch, selected } from "../src/downloads/file-patterns";

// [path, pattern, what Python 3.11's fnmatch.fnmatchcase(path, pattern) answers, a pattern ending
// in "/" given "*" as huggingface_hub does] — the reference --include/--exclude follow.
const PYTHON: [string, string, boolean][] = [
  ["model.Q4_K_M.gguf", "*.gguf", true],
  ["sub/dir/tokenizer.json", "*.json", true],
  ["config.json", "*.json", true],
  ["README.md", "*.json", false],
  ["a/b/c.bin", "a/*.bin", true],
  ["a/b/c.bin", "a/*", true],
  ["onnx/model.onnx", "onnx/", true],
  ["onnxx/model.onnx", "onnx/", false],
  ["model-00001-of-00002.safetensors", "model-0000[0-9]-of-*.safetensors", true],
  ["model-0000x-of-2.safetensors", "model-0000[0-9]-of-*.safetensors", false],
  ["a.bin", "[!a]*", false],
  ["b.bin", "[!a]*", true],
  ["]x", "[]]x", true],
  ["ax", "[]]x", false],
  ["[x", "[x", true],
  ["-", "[a-]", true],
  ["a", "[a-]", true],
  ["b", "[a-]", false],
  ["d", "[a-c-e]", false],
  ["-", "[a-c-e]", true],
  ["e", "[a-c-e]", true],
  ["b", "[z-a]", false],
  ["ab", "a?", true],
  ["a/", "a?", true],
  ["a", "a?", false],
  ["Q4.GGUF", "*.gguf", false],
  ["x\\y", "x\\y", true],
  ["abc", "*", true],
  ["", "*", true],
  ["aXbXc", "a*b*c", true],
  ["abcabd", "*abd", true],
  ["ab", "a**b", true],
  ["model.Q4_K_M.gguf", "*Q4_K_M*", true],
  ["model.q4_k_m.gguf", "*Q4_K_M*", false],
  ["-", "[!a-]", false],
  ["!", "[!]", false],
  ["a", "[!]", false],
  ["ééa.bin", "??a.bin", true],
  ["x.bin", "[!]x].bin", false],
];

describe("--include/--exclude patterns (huggingface-cli's meaning)", () => {
  test("match as Python's fnmatch does, folders ending in / included", () => {
    for (const [path, pattern, expected] of PYTHON) {
      expect({ path, pattern, matched: selected(path, { include: [pattern] }) }).toEqual({ path, pattern, matched: expected });
    }
  });

  test("a file is kept when it matches some include and no exclude", () => {
    const repo = ["config.json", "README.md", "model.Q4_K_M.gguf", "model.Q8_0.gguf", "old/model.Q4_K_M.gguf"];
    expect(repo.filter((p) => selected(p, {}))).toEqual(repo);
    expect(repo.filter((p) => selected(p, { include: ["*Q4_K_M*", "*.json"] }))).toEqual(["config.json", "model.Q4_K_M.gguf", "old/model.Q4_K_M.gguf"]);
    expect(repo.filter((p) => selected(p, { include: ["*.gguf"], exclude: ["old/", "*Q8*"] }))).toEqual(["model.Q4_K_M.gguf"]);
    expect(repo.filter((p) => selected(p, { exclude: ["*.gguf"] }))).toEqual(["config.json", "README.md"]);
  });

  test("a long path against many stars", () => {
    expect(fnmatch("a".repeat(5000), `${"*a".repeat(40)}b`)).toBe(false);
    expect(fnmatch(`${"a".repeat(5000)}b`, `${"*a".repeat(40)}b`)).toBe(true);
  });

  test("described as the options were given", () => {
    expect(describeFilePatterns({ include: ["*.gguf"], exclude: ["old/"] })).toBe("--include '*.gguf' --exclude 'old/'");
  });
});
