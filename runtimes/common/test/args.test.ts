import { expect, test } from "bun:test";
import { CPU_TEXT_GENERATION_OPTIONS } from "@svc/contracts/engine-options";
import { parseRuntimeArgs, UsageError } from "../src/args";

test("engine-style arguments are parsed", () => {
  expect(
    parseRuntimeArgs(["--model", "/m", "--host", "0.0.0.0", "--port", "9000", "--api-key", "k", "--max-input-length", "100", "--max-total-tokens", "200", "--input-dir", "/in", "--input-host-dir", "/home/me/in"]),
  ).toEqual({ model: "/m", host: "0.0.0.0", port: 9000, apiKey: "k", maxInputLength: 100, maxTotalTokens: 200, inputDir: "/in", inputHostDir: "/home/me/in", threads: undefined, engine: {}, lora: [] });
  expect(parseRuntimeArgs(["--model", "/m"])).toMatchObject({ host: "127.0.0.1", port: 8080, apiKey: undefined });
  expect(parseRuntimeArgs(["--model", "/m", "--threads", "3"]).threads).toBe(3);
  expect(parseRuntimeArgs(["--model", "/m", "--lora", "acme/a=/models/a.gguf", "--lora", "b=/x=y.gguf"]).lora).toEqual([
    { name: "acme/a", path: "/models/a.gguf" },
    { name: "b", path: "/x=y.gguf" },
  ]);
});

test("with the text-generation table, its options are read wherever they stand", () => {
  const args = parseRuntimeArgs(["--ctx-size", "512", "--model", "/m", "-t", "2", "--port", "0", "-np", "2", "--n-gpu-layers", "99"], CPU_TEXT_GENERATION_OPTIONS);
  expect(args).toMatchObject({ model: "/m", port: 0, threads: 2, engine: { "--ctx-size": 512, "--threads": 2, "--parallel": 2, "--n-gpu-layers": 99 } });
  expect(() => parseRuntimeArgs(["--model", "/m", "--ctx-size", "big"], CPU_TEXT_GENERATION_OPTIONS)).toThrow('--ctx-size "big"');
  expect(() => parseRuntimeArgs(["--model", "/m", "--bogus-flag", "1"], CPU_TEXT_GENERATION_OPTIONS)).toThrow("--bogus-flag");
});

test("bad arguments are usage errors naming the option", () => {
  expect(() => parseRuntimeArgs([])).toThrow(UsageError);
  expect(() => parseRuntimeArgs(["--model", "/m", "--port", "http"])).toThrow("--port");
  expect(() => parseRuntimeArgs(["--model", "/m", "--port", "70000"])).toThrow("--port");
  expect(() => parseRuntimeArgs(["--model", "/m", "--max-total-tokens", "0"])).toThrow("--max-total-tokens");
  expect(() => parseRuntimeArgs(["--model", "/m", "--max-input-length", "10", "--max-total-tokens", "10"])).toThrow("smaller");
  expect(() => parseRuntimeArgs(["--model", "/m", "--api-key", ""])).toThrow("--api-key");
  expect(() => parseRuntimeArgs(["--model", "/m", "--input-host-dir", "relative/in"])).toThrow("--input-host-dir");
  expect(() => parseRuntimeArgs(["--model", "/m", "--bogus"])).toThrow();
  expect(() => parseRuntimeArgs(["--model", "/m", "--threads", "many"])).toThrow("--threads");
  expect(() => parseRuntimeArgs(["--model", "/m", "--lora", "a.gguf"])).toThrow("--lora");
  expect(() => parseRuntimeArgs(["--model", "/m", "--lora", "a=relative.gguf"])).toThrow("--lora");
});
