import { expect, test } from "bun:test";
import { parseRuntimeArgs, UsageError } from "../src/args";

test("engine-style arguments are parsed", () => {
  expect(
    parseRuntimeArgs(["--model", "/m", "--host", "0.0.0.0", "--port", "9000", "--api-key", "k", "--max-input-length", "100", "--max-total-tokens", "200", "--input-dir", "/in"]),
  ).toEqual({ model: "/m", host: "0.0.0.0", port: 9000, apiKey: "k", maxInputLength: 100, maxTotalTokens: 200, inputDir: "/in", threads: undefined });
  expect(parseRuntimeArgs(["--model", "/m"])).toMatchObject({ host: "127.0.0.1", port: 8080, apiKey: undefined });
});

test("bad arguments are usage errors naming the option", () => {
  expect(() => parseRuntimeArgs([])).toThrow(UsageError);
  expect(() => parseRuntimeArgs(["--model", "/m", "--port", "http"])).toThrow("--port");
  expect(() => parseRuntimeArgs(["--model", "/m", "--port", "70000"])).toThrow("--port");
  expect(() => parseRuntimeArgs(["--model", "/m", "--max-total-tokens", "0"])).toThrow("--max-total-tokens");
  expect(() => parseRuntimeArgs(["--model", "/m", "--max-input-length", "10", "--max-total-tokens", "10"])).toThrow("smaller");
  expect(() => parseRuntimeArgs(["--model", "/m", "--api-key", ""])).toThrow("--api-key");
  expect(() => parseRuntimeArgs(["--model", "/m", "--bogus"])).toThrow();
});
