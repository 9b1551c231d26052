import { randomBytes } from "node:crypto";
import type { GbnfJsonSchema } from "node-llama-cpp";
import { invalidRequest } from "@svc/runtime-common";
import { numberLeafGbnf } from "./number-leaf";
import { stringLeafGbnf, type Written } from "./string-leaf";

/**
 * Turns a request's JSON schema (response_format json_schema, a tool's parameters) into what the
 * grammar is made of, or refuses it with a 400 naming the first keyword the grammar cannot enforce,
 * by its path in the request. The grammar then makes every answer valid against the original schema:
 *
 * - every property is written (node-llama-cpp's rule), which satisfies any `required` list;
 * - `additionalProperties` absent means none are written, which any schema allows;
 * - `anyOf` is written as one of its branches, which satisfies anyOf; a list of types as one of them;
 * - numbers with bounds or `multipleOf`, strings with a `pattern` or a `format` are written by
 *   svc's own GBNF (number-leaf.ts, pattern.ts, string-formats.ts); node-llama-cpp writes the rest;
 * - keywords that only describe (title, description, default, examples, …) are kept out of the grammar.
 */

/** What the grammar of a schema is made of. */
export interface JsonGrammarSchema {
  /** node-llama-cpp's schema; each value svc writes itself stands there as a `const` placeholder. */
  schema: GbnfJsonSchema;
  /** The GBNF of each placeholder's value. */
  leaves: Record<string, string>;
  /** The GBNF rules the leaves refer to. */
  rules: string[];
  /** The schema without placeholders, as a chat template documents a tool's parameters. */
  documented: GbnfJsonSchema;
}

const ANNOTATIONS = new Set(["title", "description", "$schema", "$id", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly"]);
const ALL_TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const NUMBER_KEYWORDS = ["type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
/** Keywords each kind of schema may carry, besides the annotations. */
const KEYWORDS: Record<string, Set<string>> = {
  object: new Set(["type", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "$defs"]),
  array: new Set(["type", "items", "prefixItems", "minItems", "maxItems", "$defs"]),
  string: new Set(["type", "minLength", "maxLength", "format", "pattern"]),
  number: new Set(NUMBER_KEYWORDS),
  integer: new Set(NUMBER_KEYWORDS),
  boolean: new Set(["type"]),
  null: new Set(["type"]),
  enum: new Set(["enum", "type"]),
  const: new Set(["const", "type"]),
  anyOf: new Set(["anyOf", "oneOf", "$defs"]),
  ref: new Set(["$ref", "$defs"]),
};

/** Placeholders differ from any `const` a request could hold. */
const PLACEHOLDER_PREFIX = `svc-leaf-${randomBytes(6).toString("hex")}-`;

type Json = Record<string, unknown>;
type Refuse = (path: string, why: string) => never;
type Leaf = (write: (name: string) => Written | undefined, plain: Json) => Json | undefined;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);
const described = (node: Json): Json => (typeof node.description === "string" ? { description: node.description } : {});

/** `schema` (found at `param`, e.g. `response_format.json_schema.schema`) made ready for its grammar; throws a 400 naming what it cannot express. */
export function grammarSchema(schema: unknown, param: string): JsonGrammarSchema {
  const refuse: Refuse = (path, why) => {
    throw invalidRequest(`${path}: ${why}.`, path);
  };
  const unsupported = (path: string, key: string, kind: string): never =>
    refuse(
      `${path}.${key}`,
      `"${key}" is not supported${key === "type" ? "" : ` for a ${kind} schema`}: structured output here is made by a grammar, which cannot enforce it; remove it (or describe it in the prompt)`,
    );
  const leaves: Record<string, string> = {};
  const rules: string[] = [];
  const plainOf: Record<string, Json> = {};
  /** A value svc writes itself (when `write` writes it): a placeholder in node-llama-cpp's schema. */
  const leaf: Leaf = (write, plain) => {
    const placeholder = `${PLACEHOLDER_PREFIX}${Object.keys(leaves).length}`;
    const written = write(placeholder);
    if (!written) return undefined;
    leaves[placeholder] = written.gbnf;
    rules.push(...written.rules);
    plainOf[placeholder] = plain;
    return { const: placeholder };
  };

  const convert = (input: unknown, path: string): Json => {
    if (!isObject(input)) return refuse(path, "is not a JSON schema object");
    const node: Json = Array.isArray(input.type) && new Set(input.type).size === 1 ? { ...input, type: input.type[0] } : input;
    const kind = kindOf(node, path, refuse);
    if (kind === "types") return { ...described(node), oneOf: typeBranches(node, path, refuse).map((branch) => convert(branch, path)) };
    const allowed = KEYWORDS[kind];
    for (const key of Object.keys(node)) {
      if (!allowed.has(key) && !ANNOTATIONS.has(key)) unsupported(path, key, kind);
    }
    const out: Json = described(node);
    if (isObject(node.$defs)) out.$defs = Object.fromEntries(Object.entries(node.$defs).map(([name, def]) => [name, convert(def, `${path}.$defs.${name}`)]));
    switch (kind) {
      case "object": {
        out.type = "object";
        const properties = node.properties ?? {};
        if (!isObject(properties)) refuse(`${path}.properties`, "must be an object");
        out.properties = Object.fromEntries(Object.entries(properties as Json).map(([name, value]) => [name, convert(value, `${path}.properties.${name}`)]));
        const extra = node.additionalProperties;
        if (extra !== undefined && typeof extra !== "boolean") out.additionalProperties = convert(extra, `${path}.additionalProperties`);
        else if (extra === true) out.additionalProperties = true;
        copyCounts(node, out, "minProperties", "maxProperties", path, refuse);
        return out;
      }
      case "array":
        out.type = "array";
        if (node.items !== undefined) out.items = convert(node.items, `${path}.items`);
        if (node.prefixItems !== undefined) {
          if (!Array.isArray(node.prefixItems)) refuse(`${path}.prefixItems`, "must be an array");
          out.prefixItems = (node.prefixItems as unknown[]).map((item, index) => convert(item, `${path}.prefixItems.${index}`));
        }
        copyCounts(node, out, "minItems", "maxItems", path, refuse);
        return out;
      case "string":
        return stringSchema(node, out, path, refuse, leaf);
      case "number":
      case "integer": {
        const write = () => {
          const gbnf = numberLeafGbnf(node, path, refuse);
          return gbnf === undefined ? undefined : { gbnf, rules: [] };
        };
        return leaf(write, { ...out, type: kind }) ?? { ...out, type: kind };
      }
      case "boolean":
      case "null":
        out.type = kind;
        return out;
      case "enum":
        if (!Array.isArray(node.enum) || node.enum.length === 0 || !node.enum.every(isScalar)) refuse(`${path}.enum`, "must be a non-empty array of strings, numbers, booleans or null");
        out.enum = node.enum;
        return out;
      case "const":
        if (!isScalar(node.const)) refuse(`${path}.const`, "must be a string, number, boolean or null");
        out.const = node.const;
        return out;
      case "anyOf": {
        const key = node.anyOf !== undefined ? "anyOf" : "oneOf";
        if (node.anyOf !== undefined && node.oneOf !== undefined) refuse(`${path}.oneOf`, "anyOf and oneOf together are not supported");
        const branches = node[key];
        if (!Array.isArray(branches) || branches.length === 0) refuse(`${path}.${key}`, "must be a non-empty array of schemas");
        out.oneOf = (branches as unknown[]).map((branch, index) => convert(branch, `${path}.${key}.${index}`));
        return out;
      }
      default:
        if (typeof node.$ref !== "string" || !node.$ref.startsWith("#/$defs/")) refuse(`${path}.$ref`, 'only references to "#/$defs/<name>" are supported');
        out.$ref = node.$ref;
        return out;
    }
  };
  const converted = convert(schema, param);
  return { schema: converted as GbnfJsonSchema, leaves, rules, documented: withoutPlaceholders(converted, plainOf) as GbnfJsonSchema };
}

/** A string schema: svc's GBNF for a pattern or a format (with or without lengths), node-llama-cpp's for lengths alone. */
function stringSchema(node: Json, out: Json, path: string, refuse: Refuse, leaf: Leaf): Json {
  const plain = { ...out, type: "string" };
  copyCounts(node, plain, "minLength", "maxLength", path, refuse);
  return leaf((name) => stringLeafGbnf(node, path, refuse, name), { ...out, type: "string" }) ?? plain;
}

/** A node with a list of types as one schema per type, each with the keywords of its type. */
function typeBranches(node: Json, path: string, refuse: Refuse): Json[] {
  const types = node.type as string[];
  const keywords = Object.keys(node).filter((key) => key !== "type" && !ANNOTATIONS.has(key));
  for (const key of keywords) {
    if (!types.some((type) => KEYWORDS[type].has(key))) refuse(`${path}.${key}`, `"${key}" applies to none of the types ${types.join(", ")}`);
  }
  return types.map((type) => Object.fromEntries([["type", type], ...keywords.filter((key) => KEYWORDS[type].has(key)).map((key) => [key, node[key]])]));
}

function kindOf(node: Json, path: string, refuse: Refuse): string {
  if ("$ref" in node) return "ref";
  if ("anyOf" in node || "oneOf" in node) return "anyOf";
  if ("enum" in node) return "enum";
  if ("const" in node) return "const";
  const type = node.type;
  if (typeof type === "string" && ALL_TYPES.has(type)) return type;
  if (Array.isArray(type) && type.length > 0 && type.every((item) => ALL_TYPES.has(item as string))) return "types";
  if (Array.isArray(type)) return refuse(`${path}.type`, `must list JSON schema types (${[...ALL_TYPES].join(", ")})`);
  if (type === undefined) return refuse(path, "a schema without a type (or enum, const, anyOf, $ref) is not supported");
  return refuse(`${path}.type`, `"${String(type)}" is not a JSON schema type`);
}

function copyCounts(node: Json, out: Json, minKey: string, maxKey: string, path: string, refuse: Refuse): void {
  for (const key of [minKey, maxKey]) {
    const value = node[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 0) refuse(`${path}.${key}`, "must be an integer of at least 0");
    out[key] = value;
  }
  if (typeof out[minKey] === "number" && typeof out[maxKey] === "number" && out[minKey] > out[maxKey]) refuse(`${path}.${minKey}`, `${out[minKey]} is above ${maxKey} ${out[maxKey]}: nothing fits`);
}

/** `schema` with each placeholder `{const}` replaced by the plain schema it stands for. */
function withoutPlaceholders(schema: unknown, plainOf: Record<string, Json>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutPlaceholders(item, plainOf));
  if (!isObject(schema)) return schema;
  if (typeof schema.const === "string" && plainOf[schema.const]) return plainOf[schema.const];
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutPlaceholders(value, plainOf)]));
}
