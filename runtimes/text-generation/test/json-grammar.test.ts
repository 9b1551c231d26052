/**
 * The grammars svc writes for bounds, multipleOf, patterns and formats, sampled on the tiny random
 * model (whose every token is a guess, so the grammar alone makes the value valid): each value
 * generated validates against its schema with Ajv, formats included.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { parseRuntimeArgs } from "@svc/runtime-common";
import { engineSettings } from "../src/engine-settings";
import { grammarSchema } from "../src/json-grammar/schema";
import { LlamaEngine } from "../src/llama-engine";

let cacheDir: string;
let engine: LlamaEngine;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-grammar-"));
  const modelFile = join(makeTinyModels(cacheDir).textGeneration, "tiny-llama-f32.gguf");
  engine = await LlamaEngine.load(engineSettings(parseRuntimeArgs(["--model", modelFile, "--max-total-tokens", "512"]), modelFile).settings);
});

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

// The values are exact decimal multiples; Ajv divides in binary floating point.
const ajv = addFormats(new Ajv2020({ strict: false, multipleOfPrecision: 9 }));

/** `count` values generated under the schema's grammar, seeded 1…count, each parsed. */
async function sample(schema: object, count: number): Promise<unknown[]> {
  const grammar = await engine.jsonGrammar(grammarSchema(schema, "schema"));
  const prompt = engine.tokenizeChat([{ role: "user", content: "A value, please." }]);
  const values: unknown[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const run = engine.generate(prompt, { maxTokens: 120, temperature: 1, topP: 1, stop: [], grammar, seed });
    let step = await run.next();
    while (!step.done) step = await run.next();
    expect({ seed, finish: step.value.finishReason, text: step.value.text }).toEqual({ seed, finish: "stop", text: step.value.text });
    values.push(JSON.parse(step.value.text));
  }
  return values;
}

/** Samples the schema and fails naming each value that does not validate. */
async function expectAllValid(schema: object, count = 12): Promise<unknown[]> {
  const validate = ajv.compile(schema);
  const values = await sample(schema, count);
  const invalid = values.filter((value) => !validate(value)).map((value) => `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
  expect(invalid).toEqual([]);
  return values;
}

test("integers within bounds: inclusive, exclusive, negative, across digit counts, zod's safe-integer range", async () => {
  await expectAllValid({ type: "integer", minimum: 7, maximum: 12 });
  await expectAllValid({ type: "integer", minimum: -15, maximum: 3 });
  await expectAllValid({ type: "integer", exclusiveMinimum: 95, exclusiveMaximum: 1234 });
  await expectAllValid({ type: "integer", minimum: -9_007_199_254_740_991, maximum: 9_007_199_254_740_991 });
  await expectAllValid({ type: "integer", minimum: 1000 });
  await expectAllValid({ type: "integer", maximum: -40 });
  await expectAllValid({ type: "integer", minimum: 0.5, maximum: 3.5 });
  expect(new Set(await sample({ type: "integer", minimum: 7, maximum: 8 }, 12))).toEqual(new Set([7, 8]));
});

test("numbers within bounds, fractions compared with the bound's digits", async () => {
  await expectAllValid({ type: "number", minimum: 0.25, maximum: 0.75 });
  await expectAllValid({ type: "number", exclusiveMinimum: -1.5, exclusiveMaximum: 0 });
  await expectAllValid({ type: "number", minimum: 0, exclusiveMaximum: 1 });
  await expectAllValid({ type: "number", minimum: 99.9, maximum: 100.01 });
  await expectAllValid({ type: "number", exclusiveMinimum: 3, maximum: 3.001 });
});

test("multipleOf: powers of ten exactly, other steps listed between bounds", async () => {
  await expectAllValid({ type: "number", minimum: 0, maximum: 50, multipleOf: 0.01 });
  await expectAllValid({ type: "integer", multipleOf: 100 });
  await expectAllValid({ type: "integer", minimum: -250, maximum: 1000, multipleOf: 100 });
  await expectAllValid({ type: "integer", minimum: 1, maximum: 100, multipleOf: 7 });
  await expectAllValid({ type: "number", minimum: -1, maximum: 1, multipleOf: 0.25 });
});

test("patterns: classes, groups, alternation, quantifiers, escapes, characters JSON escapes", async () => {
  for (const pattern of ["^[A-Z]{3}-\\d{2,4}$", "^(ab|cd)+x?$", "^@[a-zA-Z0-9_]{1,15}$", "^[^a-z]{2}\\.\\s\\w$", "^\\$\\d+(\\.\\d\\d)?$|^free$", '^["\\\\]{1,3}$', "^\\u00e9{2}.$", "^(?:x|)\\t[\\d-]$"]) {
    await expectAllValid({ type: "string", pattern }, 6);
  }
});

test("a pattern with a format or lengths: values that satisfy all of them (zod writes a pattern with each format)", async () => {
  const zodEmail = "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$";
  await expectAllValid({ type: "string", format: "email", pattern: zodEmail }, 6);
  await expectAllValid({ type: "string", format: "uuid", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$" }, 6);
  await expectAllValid({ type: "string", pattern: "^[a-z]+(-[a-z]+)*$", minLength: 3, maxLength: 9 }, 6);
  await expectAllValid({ type: "string", pattern: "x", maxLength: 5 }, 6);
  await expectAllValid({ type: "string", format: "hostname", maxLength: 12 }, 6);
});

test("an unanchored pattern allows any text around its match", () => {
  const [gbnf] = Object.values(grammarSchema({ type: "string", pattern: "[0-9]" }, "schema").leaves);
  expect(gbnf).toMatch(/^"\\"" \(\(.+\)\* \[0-9\] \(.+\)\*\) "\\""$/);
});

test("formats: each value is one Ajv's formats accept", async () => {
  for (const format of ["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]) {
    await expectAllValid({ type: "string", format }, 6);
  }
});

test("within an object: nullable bounded fields, arrays of bounded items", async () => {
  await expectAllValid(
    {
      type: "object",
      properties: {
        age: { type: ["integer", "null"], minimum: 18, maximum: 99 },
        scores: { type: "array", items: { type: "number", minimum: 0, maximum: 10, multipleOf: 0.5 }, minItems: 1, maxItems: 3 },
        code: { type: "string", pattern: "^[a-f0-9]{4}$" },
      },
      required: ["age", "scores", "code"],
      additionalProperties: false,
    },
    6,
  );
});
