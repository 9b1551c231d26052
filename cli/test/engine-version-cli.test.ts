/** `svc run --engine-version` and the line a GPU launch's answer prints about its engine's version. */
import { expect, test } from "bun:test";
import { parseRunArgs } from "../src/commands/run/parse-run-args";
import { engineVersionLine } from "../src/commands/run/engine-version-line";
import { UsageError } from "../src/errors";

test("--engine-version takes a version and goes into the request; anything else is a usage error naming it", () => {
  const parsed = parseRunArgs(["--gres", "1", "text-generation", "acme/llama", "--engine-version", "0.26.1", "--max-model-len", "512"]);
  expect(parsed.help).toBe(false);
  if (parsed.help) return;
  expect(parsed.request.engineVersion).toBe("0.26.1");
  expect(parsed.request.engineArgs).toEqual(["--max-model-len", "512"]);
  expect(() => parseRunArgs(["text-generation", "acme/llama", "--engine-version", "latest"])).toThrow(UsageError);
  expect(() => parseRunArgs(["text-generation", "acme/llama", "--engine-version", "latest"])).toThrow('--engine-version "latest"');
});

test("the version line says the version, how svc knows it, and the list that checked the arguments", () => {
  expect(engineVersionLine({ engine: "vllm", version: "0.26.1", source: "found", checkedAgainst: "v0.11.1", how: "python3 on login" })).toBe(
    "Engine: vLLM 0.26.1 (found: python3 on login), checked against vLLM v0.11.1's options.",
  );
  expect(engineVersionLine({ engine: "sglang", version: "v0.5.5", source: "pinned", checkedAgainst: "v0.5.5" })).toBe("Engine: SGLang v0.5.5 (svc's pinned version): arguments checked against its options.");
  expect(engineVersionLine({ engine: "vllm", version: null, source: "unknown", checkedAgainst: null })).toBe("Engine: vLLM, version unknown: its arguments were not checked.");
});
