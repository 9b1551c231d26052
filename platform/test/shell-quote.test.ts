import { expect, test } from "bun:test";
import { shellJoin, shellQuote } from "../src/shell/quote";

const HOSTILE = ["$(touch /tmp/pwned)", "`id`", "a; rm -rf /", "it's", "line\nbreak", "\\", "*", "--flag=x y", "", "${HOME}", "'; echo '"];

test("plain words stay as they are", () => {
  expect(shellJoin(["docker", "run", "--port", "8080", "/models/a-b_c.gguf", "key=value"])).toBe("docker run --port 8080 /models/a-b_c.gguf key=value");
});

test("every hostile word comes back out of a real shell unchanged, as one argument, and runs nothing", () => {
  const line = `printf '%s\\0' ${shellJoin(HOSTILE)}`;
  const result = Bun.spawnSync(["sh", "-c", line], { env: { HOME: "/nonexistent", PATH: process.env.PATH } });
  expect(result.exitCode).toBe(0);
  const words = result.stdout.toString().split("\0").slice(0, -1);
  expect(words).toEqual(HOSTILE);
});

test("a NUL byte is refused", () => {
  expect(() => shellQuote("a\0b")).toThrow("NUL");
});
