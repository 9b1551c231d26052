/** A token's chunk is encoded from a template made once per stream: the bytes are JSON.stringify's. */
import { expect, test } from "bun:test";
import { jsonWithText, TEXT } from "../src/sse";

test("the templated chunk is byte for byte the chunk JSON.stringify makes, for any text", () => {
  const chunk = (content: string) => ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "/models/x \"y\"", choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }], usage: null });
  const encode = jsonWithText(chunk(TEXT));
  for (const text of ["", " hello", 'quote " and \\ backslash', "line\nbreak\ttab", "ünïcödé 🚀", "\u0000\u001f", "\ud800"]) {
    expect(encode(text)).toBe(JSON.stringify(chunk(text)));
  }
});

test("an event without the placeholder is refused when the template is made", () => {
  expect(() => jsonWithText({ content: "x" })).toThrow("TEXT");
});
