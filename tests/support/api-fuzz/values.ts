/**
 * fast-check arbitraries from the JSON Schemas of the API document: values a schema accepts, and
 * values it refuses, each with what makes it wrong (one thing broken at a time).
 */
import fc, { type Arbitrary } from "fast-check";

export type Schema = Record<string, any>;

export interface SchemaContext {
  /** The document's components.schemas, for `$ref`. */
  defs: Record<string, Schema>;
  /** Values a property or parameter of this name always takes, in examples too (e.g. paths inside a sandbox). */
  confined: Record<string, Arbitrary<unknown>>;
  /** Values to generate for a property or parameter of this name instead of its schema's. */
  overrides: Record<string, Arbitrary<unknown>>;
}

/** A value the schema refuses, and why. */
export interface Broken {
  value: unknown;
  why: string;
}

const MAX_ITEMS = 3;
const MAX_STRING = 24;
const LIMIT = 1e9;

export function resolve(schema: Schema, ctx: SchemaContext): Schema {
  let resolved = schema;
  while (typeof resolved.$ref === "string") resolved = ctx.defs[resolved.$ref.replace("#/components/schemas/", "")];
  return resolved;
}

const codePoints = (text: string) => [...text].length;
/** fast-check generates from regular expressions without lookarounds; those are checked after. */
const withoutLookarounds = (pattern: string) => pattern.replace(/\(\?<?[=!](?:[^()\\]|\\.)*\)/g, "");

function validString(schema: Schema): Arbitrary<string> {
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format === "date-time") return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((date) => date.toISOString());
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  const fits = (text: string) => codePoints(text) >= min && codePoints(text) <= max;
  if (typeof schema.pattern === "string") {
    const full = new RegExp(schema.pattern, "u");
    return fc.stringMatching(new RegExp(withoutLookarounds(schema.pattern))).filter((text) => full.test(text) && fits(text));
  }
  return fc.string({ unit: "grapheme", minLength: min, maxLength: Math.max(min, Math.min(max, MAX_STRING)) }).filter(fits);
}

/** Values `schema` accepts (the property or parameter `name` may have an override). */
export function validValue(schema: Schema, ctx: SchemaContext, name?: string): Arbitrary<unknown> {
  const instead = name === undefined ? undefined : (ctx.confined[name] ?? ctx.overrides[name]);
  if (instead) return instead;
  const s = resolve(schema, ctx);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const options: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (options) return fc.oneof(...options.map((option) => validValue(option, ctx)));
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type: string) => validValue({ ...s, type }, ctx)));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.minimum ?? -LIMIT, max: s.maximum ?? LIMIT });
    case "number":
      return fc.double({ min: s.minimum ?? -LIMIT, max: s.maximum ?? LIMIT, noNaN: true, noDefaultInfinity: true });
    case "string":
      return validString(s);
    case "array":
      return fc.array(validValue(s.items ?? {}, ctx), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? MAX_ITEMS, MAX_ITEMS)) });
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, ctx, key)]));
      const generated = fc.record(model, { requiredKeys: (s.required ?? []).filter((key: string) => key in properties) });
      if (!Array.isArray(s.examples) || s.examples.length === 0) return generated;
      // The document's examples (confined fields replaced): requests that reach past the first checks.
      const fromExamples = fc.constantFrom(...(s.examples as Record<string, unknown>[])).chain((example) => {
        const replaced = Object.keys(example).filter((key) => ctx.confined[key]);
        return fc.record(Object.fromEntries(replaced.map((key) => [key, ctx.confined[key]]))).map((values) => ({ ...example, ...values }));
      });
      return fc.oneof(generated, fromExamples);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The JSON types a schema accepts; undefined when it accepts any. */
function typesOf(schema: Schema, ctx: SchemaContext): Set<string> | undefined {
  const s = resolve(schema, ctx);
  const options: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (options) {
    const each = options.map((option) => typesOf(option, ctx));
    return each.some((types) => types === undefined) ? undefined : new Set(each.flatMap((types) => [...types!]));
  }
  if ("const" in s) return new Set([s.const === null ? "null" : Array.isArray(s.const) ? "array" : typeof s.const === "number" ? "number" : typeof s.const]);
  if (s.type === undefined) return undefined;
  const types = new Set<string>(Array.isArray(s.type) ? s.type : [s.type]);
  if (types.has("number")) types.add("integer");
  return types;
}

const WRONG_TYPES: Array<[string, unknown]> = [
  ["integer", 7],
  ["string", "x"],
  ["boolean", true],
  ["array", []],
  ["object", {}],
  ["null", null],
];

/** Values of a single scalar keyword's wrong side: too long or short, out of range, not in the enum or pattern. */
function brokenScalars(s: Schema): Broken[] {
  const broken: Broken[] = [];
  if (s.type === "string" || Array.isArray(s.enum)) {
    if (typeof s.maxLength === "number") broken.push({ value: "a".repeat(s.maxLength + 1), why: `longer than maxLength ${s.maxLength}` });
    if (typeof s.minLength === "number" && s.minLength > 0) broken.push({ value: "a".repeat(s.minLength - 1), why: `shorter than minLength ${s.minLength}` });
    if (Array.isArray(s.enum)) broken.push({ value: "not-one-of-them", why: `not one of ${s.enum.join(", ")}` });
    if (typeof s.pattern === "string") {
      const full = new RegExp(s.pattern, "u");
      for (const value of ["", " ", "line\nbreak", "../..", "a".repeat(300)]) {
        if (!full.test(value)) broken.push({ value, why: `does not match ${s.pattern}` });
      }
    }
  }
  if (s.type === "integer" || s.type === "number") {
    if (typeof s.maximum === "number") broken.push({ value: s.maximum + 1, why: `above maximum ${s.maximum}` });
    if (typeof s.minimum === "number") broken.push({ value: s.minimum - 1, why: `below minimum ${s.minimum}` });
    if (s.type === "integer") broken.push({ value: 1.5, why: "not a whole number" });
  }
  return broken;
}

/** Values `schema` refuses, each with what is wrong; undefined when it refuses nothing. */
export function brokenValue(schema: Schema, ctx: SchemaContext, where = "value"): Arbitrary<Broken> | undefined {
  const s = resolve(schema, ctx);
  const choices: Array<Arbitrary<Broken>> = [];
  const types = typesOf(s, ctx);
  if (types) {
    const wrong = WRONG_TYPES.filter(([type]) => !types.has(type));
    if (wrong.length > 0) choices.push(fc.constantFrom(...wrong).map(([type, value]) => ({ value, why: `${where} is ${type}, not ${[...types].join(" or ")}` })));
  }
  const scalars = brokenScalars(s).map((broken) => ({ ...broken, why: `${where} ${broken.why}` }));
  if (scalars.length > 0) choices.push(fc.constantFrom(...scalars));
  if (s.type === "array" && typeof s.maxItems === "number" && s.maxItems < 50) {
    choices.push(fc.array(validValue(s.items ?? {}, ctx), { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }).map((value) => ({ value, why: `${where} has more than ${s.maxItems} items` })));
  }
  if (s.type === "object") choices.push(...brokenObjects(s, ctx, where));
  return choices.length > 0 ? fc.oneof(...choices) : undefined;
}

/** An object with one required field missing, an unknown field, or one field broken. */
function brokenObjects(s: Schema, ctx: SchemaContext, where: string): Array<Arbitrary<Broken>> {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const valid = validValue(s, ctx) as Arbitrary<Record<string, unknown>>;
  const choices: Array<Arbitrary<Broken>> = [];
  const required: string[] = s.required ?? [];
  if (required.length > 0) {
    choices.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => {
        const { [key]: _, ...rest } = value;
        return { value: rest, why: `${where}.${key} is missing` };
      }),
    );
  }
  if (s.additionalProperties === false) choices.push(valid.map((value) => ({ value: { ...value, unexpectedField: 1 }, why: `${where} has a field it does not define` })));
  const breakable = Object.entries(properties)
    .map(([key, property]) => [key, brokenValue(property, ctx, `${where}.${key}`)] as const)
    .filter((entry): entry is readonly [string, Arbitrary<Broken>] => entry[1] !== undefined);
  if (breakable.length > 0) {
    const field = fc.constantFrom(...breakable).chain(([key, broken]) => broken.map((b) => ({ key, broken: b })));
    choices.push(fc.tuple(valid, field).map(([value, { key, broken }]) => ({ value: { ...value, [key]: broken.value }, why: broken.why })));
  }
  return choices;
}
