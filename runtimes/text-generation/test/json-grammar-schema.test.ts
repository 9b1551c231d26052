/** Which JSON schemas the grammar takes, and how a refusal names the keyword; the auto tool choice's decision. */
import { expect, test } from "bun:test";
import { callDecision } from "../src/chat-answer";
import { grammarSchema } from "../src/json-grammar/schema";

const refusal = (schema: unknown) => {
  try {
    grammarSchema(schema, "response_format.json_schema.schema");
  } catch (error) {
    const { message, param } = error as Error & { param: string };
    return { message, param };
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
  const expected = {
    type: "object",
    properties: { name: { type: "string", description: "who" }, kind: { oneOf: [{ enum: ["a", "b"] }, { type: "null" }] }, tags: { type: "array", items: { type: "string" }, maxItems: 2 } },
  };
  expect(grammarSchema(schema, "p")).toEqual({ schema: expected, leaves: {}, rules: [], documented: expected } as never);
});

test("bounds, multipleOf, patterns and formats are values svc writes itself; the documented schema has plain types there", () => {
  const schema = {
    type: "object",
    properties: { age: { type: "integer", minimum: 0, maximum: 120, description: "years" }, id: { type: "string", format: "uuid" }, code: { type: "string", pattern: "^[A-Z]{3}$" } },
  };
  const made = grammarSchema(schema, "p");
  expect(Object.keys(made.leaves)).toHaveLength(3);
  const properties = (made.schema as { properties: Record<string, { const: string }> }).properties;
  expect(Object.keys(made.leaves)).toEqual([properties.age.const, properties.id.const, properties.code.const]);
  expect(made.documented).toEqual({ type: "object", properties: { age: { type: "integer", description: "years" }, id: { type: "string" }, code: { type: "string" } } } as never);
});

test("a list of types is one branch per type, each with its keywords", () => {
  const made = grammarSchema({ type: ["string", "null"], maxLength: 3 }, "p");
  expect(made.schema).toEqual({ oneOf: [{ type: "string", maxLength: 3 }, { type: "null" }] } as never);
  expect(grammarSchema({ type: ["integer"] }, "p").schema).toEqual({ type: "integer" });
});

test("keywords the grammar cannot enforce are refused by their path, in the field the client sent", () => {
  const base = "response_format.json_schema.schema";
  expect(refusal({ type: "object", properties: { a: { allOf: [] } } }).message).toContain("a schema without a type");
  const not = refusal({ type: "object", properties: { a: { type: "string", not: {} } } });
  expect(not.param).toBe(`${base}.properties.a.not`);
  expect(not.message).toStartWith(`${base}.properties.a.not: "not" is not supported for a string schema`);
  expect(refusal({ type: "string", format: "uri" }).message).toContain('format "uri" is not supported (only date-time, date, time, duration, email, hostname, ipv4, ipv6, uuid)');
  expect(refusal({ type: "string", pattern: "^(?=a)b$" }).message).toStartWith(`${base}.pattern: lookarounds`);
  expect(refusal({ type: "string", pattern: "(a)\\1" }).message).toContain("backreferences");
  expect(refusal({ type: "string", pattern: "^a{5}$", maxLength: 2 })).toEqual({ param: `${base}.pattern`, message: `${base}.pattern: no string satisfies pattern, maxLength together.` });
  expect(refusal({ type: "string", format: "date", pattern: "^x" }).message).toBe(`${base}.pattern: no string satisfies pattern, format together.`);
  expect(refusal({ type: "string", pattern: ".{50}", format: "date-time" }).message).toBe(`${base}.pattern: no string satisfies pattern, format together.`);
  expect(refusal({ type: "string", pattern: "[ab]*a[ab]{30}", maxLength: 200 }).message).toBe(`${base}.pattern: pattern, maxLength together make a grammar of more than 4000 states; loosen one of them.`);
  expect(refusal({ type: "integer", multipleOf: 3 }).message).toContain("at most 256 of them");
  expect(refusal({ type: "integer", minimum: 0, maximum: 10_000, multipleOf: 3 }).param).toBe(`${base}.multipleOf`);
  expect(refusal({ type: "integer", minimum: 5, maximum: 4 }).message).toBe(`${base}: no integer is >= 5 and <= 4.`);
  expect(refusal({ type: "integer", exclusiveMinimum: 1, exclusiveMaximum: 2 }).message).toBe(`${base}: no integer is > 1 and < 2.`);
  expect(refusal({ type: "number", minimum: "1" }).param).toBe(`${base}.minimum`);
  expect(refusal({ type: "string", minLength: 5, maxLength: 2 }).param).toBe(`${base}.minLength`);
  expect(refusal({ type: ["string", "null"], minimum: 1 }).message).toContain('"minimum" applies to none of the types string, null');
  expect(refusal({ type: ["object", "wrong"] }).param).toBe(`${base}.type`);
  expect(refusal({ $ref: "#/definitions/x" }).message).toContain('"#/$defs/<name>"');
});

test("auto: the answer is a call once it starts with the template's call syntax, text once it cannot", () => {
  expect(callDecision("", "||call:")).toBe("open");
  expect(callDecision(" ||ca", "||call:")).toBe("open");
  expect(callDecision("||call: get", "||call:")).toBe("call");
  expect(callDecision("|x", "||call:")).toBe("text");
  expect(callDecision("Hello", "||call:")).toBe("text");
});
