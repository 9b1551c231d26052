import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readApiKey } from "../src/api-key";
import { parseRuntimeArgs } from "../src/args";

const dir = mkdtempSync(join(tmpdir(), "svc-api-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the key comes from --api-key, else the first line of --api-key-file, else SVC_API_KEY", () => {
  const file = join(dir, "key");
  writeFileSync(file, "from-the-file\nignored\n", { mode: 0o600 });
  expect(readApiKey("given", file, { SVC_API_KEY: "from-env" })).toBe("given");
  expect(readApiKey(undefined, file, { SVC_API_KEY: "from-env" })).toBe("from-the-file");
  expect(readApiKey(undefined, undefined, { SVC_API_KEY: " from-env " })).toBe("from-env");
  expect(readApiKey(undefined, undefined, {})).toBeUndefined();
  expect(parseRuntimeArgs(["--model", "/m", "--api-key-file", file]).apiKey).toBe("from-the-file");
});

test("an empty or missing key file is a usage error naming it", () => {
  const empty = join(dir, "empty");
  writeFileSync(empty, "\n");
  expect(() => readApiKey(undefined, empty, {})).toThrow(`--api-key-file ${empty} is empty`);
  expect(() => readApiKey(undefined, join(dir, "absent"), {})).toThrow("ENOENT");
  expect(() => readApiKey("", undefined, {})).toThrow("--api-key must not be empty");
});
