/** Which JSON schemas the grammar takes, and how a refusal names the keyword; the auto tool choice's decision. */
import { expect, test } from "bun:test";
import { callDecision } from "../src/chat-answer";
import { grammarSchema } from "../src/json-schema";

const refusal = (schema: unknown) => {
  try {
    grammarSchema(schema, "response_format.json_schema.schema");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("not refused");
};

test("a strict schema is kept as the grammar's schema: anyOf becomes oneOf, annotations that do not constrain are left out", () => {
  const schema = {
    type: "object",
    title: "Person",
    properties: { name: { type: "string", description: "who" }, kind: { anyOf: [{ enum: ["a", "b"] }, { type: "null" }] }, tags: { type: "array", items: { type: "string" }, maxItems: 2 } },
    required: ["name", "kind", "tags"],
    additionalProperties: false,
  };
  expect(grammarSchema(schema, "p")).toEqual({
    type: "object",
    properties: { name: { type: "string", description: "who" }, kind: { oneOf: [{ enum: ["a", "b"] }, { type: "null" }] }, tags: { type: "array", items: { type: "string" }, maxItems: 2 } },
  } as never);
});

test("keywords the grammar cannot enforce are refused by their path", () => {
  expect(refusal({ type: "object", properties: { age: { type: "integer", minimum: 0 } } })).toStartWith('response_format.json_schema.schema.properties.age.minimum: "minimum" is not supported');
  expect(refusal({ type: "string", pattern: "^a" })).toStartWith("response_format.json_schema.schema.pattern:");
  expect(refusal({ type: "string", format: "email" })).toContain('format "email" is not supported');
  expect(refusal({ allOf: [] })).toContain("a schema without a type");
  expect(refusal({ type: ["object", "null"] })).toContain("response_format.json_schema.schema.type: a list of types");
  expect(refusal({ $ref: "#/definitions/x" })).toContain('"#/$defs/<name>"');
});

test("auto: the answer is a call once it starts with the template's call syntax, text once it cannot", () => {
  expect(callDecision("", "||call:")).toBe("open");
  expect(callDecision(" ||ca", "||call:")).toBe("open");
  expect(callDecision("||call: get", "||call:")).toBe("call");
  expect(callDecision("|x", "||call:")).toBe("text");
  expect(callDecision("Hello", "||call:")).toBe("text");
});
