import type { GbnfJsonSchema } from "node-llama-cpp";
import { invalidRequest } from "@svc/runtime-common";

/**
 * Turns a request's JSON schema (response_format json_schema, a tool's parameters) into the schema
 * node-llama-cpp writes a GBNF grammar for, or refuses it with a 400 naming the first keyword the
 * grammar cannot enforce. The grammar then makes every answer valid against the original schema:
 *
 * - every property is written (node-llama-cpp's rule), which satisfies any `required` list;
 * - `additionalProperties` absent means none are written, which any schema allows;
 * - `anyOf` is written as one of its branches, which satisfies anyOf;
 * - keywords that only describe (title, description, default, examples, …) are kept out of the grammar.
 */

const ANNOTATIONS = new Set(["title", "description", "$schema", "$id", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const FORMATS = new Set(["date-time", "date", "time"]);
/** Keywords each kind of schema may carry, besides the annotations. */
const KEYWORDS: Record<string, Set<string>> = {
  object: new Set(["type", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "$defs"]),
  array: new Set(["type", "items", "prefixItems", "minItems", "maxItems", "$defs"]),
  string: new Set(["type", "minLength", "maxLength", "format"]),
  scalar: new Set(["type"]),
  enum: new Set(["enum", "type"]),
  const: new Set(["const", "type"]),
  anyOf: new Set(["anyOf", "oneOf", "$defs"]),
  ref: new Set(["$ref", "$defs"]),
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);

/** `schema` (found at `param`, e.g. `response_format.json_schema.schema`) as a grammar schema; throws a 400 naming what it cannot express. */
export function grammarSchema(schema: unknown, param: string): GbnfJsonSchema {
  const refuse = (path: string, why: string): never => {
    throw invalidRequest(`${path}: ${why}; structured output here is made by a grammar, which cannot enforce it. Remove it (or describe it in the prompt).`, param);
  };

  const convert = (node: unknown, path: string): Json => {
    if (!isObject(node)) return refuse(path, "is not a JSON schema object");
    const kind = kindOf(node, path, refuse);
    const allowed = KEYWORDS[kind];
    for (const key of Object.keys(node)) {
      if (!allowed.has(key) && !ANNOTATIONS.has(key)) refuse(`${path}.${key}`, `"${key}" is not supported${key === "type" ? "" : ` for a ${kind} schema`}`);
    }
    const out: Json = {};
    if (typeof node.description === "string") out.description = node.description;
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
        copyCounts(node, out, ["minProperties", "maxProperties"], path, refuse);
        return out;
      }
      case "array":
        out.type = "array";
        if (node.items !== undefined) out.items = convert(node.items, `${path}.items`);
        if (node.prefixItems !== undefined) {
          if (!Array.isArray(node.prefixItems)) refuse(`${path}.prefixItems`, "must be an array");
          out.prefixItems = (node.prefixItems as unknown[]).map((item, index) => convert(item, `${path}.prefixItems.${index}`));
        }
        copyCounts(node, out, ["minItems", "maxItems"], path, refuse);
        return out;
      case "string":
        out.type = "string";
        if (node.format !== undefined) {
          if (!FORMATS.has(node.format as string)) refuse(`${path}.format`, `format "${String(node.format)}" is not supported (only ${[...FORMATS].join(", ")})`);
          if (node.minLength !== undefined || node.maxLength !== undefined) refuse(`${path}.format`, "format together with minLength/maxLength is not supported");
          out.format = node.format;
        }
        copyCounts(node, out, ["minLength", "maxLength"], path, refuse);
        return out;
      case "scalar":
        out.type = node.type;
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
  return convert(schema, param) as GbnfJsonSchema;
}

function kindOf(node: Json, path: string, refuse: (path: string, why: string) => never): string {
  if ("$ref" in node) return "ref";
  if ("anyOf" in node || "oneOf" in node) return "anyOf";
  if ("enum" in node) return "enum";
  if ("const" in node) return "const";
  const type = node.type;
  if (type === "object" || type === "array" || type === "string") return type;
  if (typeof type === "string" && SCALAR_TYPES.has(type)) return "scalar";
  if (Array.isArray(type) && type.length > 0 && type.every((item) => SCALAR_TYPES.has(item as string))) return "scalar";
  if (Array.isArray(type)) return refuse(`${path}.type`, `a list of types is supported only of ${[...SCALAR_TYPES].join(", ")} (use anyOf for objects and arrays)`);
  if (type === undefined) return refuse(path, "a schema without a type (or enum, const, anyOf, $ref) is not supported");
  return refuse(`${path}.type`, `"${String(type)}" is not a JSON schema type`);
}

function copyCounts(node: Json, out: Json, keys: string[], path: string, refuse: (path: string, why: string) => never): void {
  for (const key of keys) {
    const value = node[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 0) refuse(`${path}.${key}`, "must be an integer of at least 0");
    out[key] = value;
  }
}

/** Numbers in llama.cpp JSON grammars without exponents: "5e-1" is no integer, and "1e99999" parses as Infinity. */
const EXPONENT = ' ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?';
/** node-llama-cpp ends its JSON grammars with blank lines for its own chat loop to stop at; the grammar here ends at the value. */
const TRAILING_NEWLINES = ' "\\n\\n\\n\\n" [\\n]*';

/** node-llama-cpp's GBNF for a JSON schema, ending with the value and with numbers written without exponents. */
export function plainJsonGrammar(gbnf: string): string {
  if (!gbnf.includes(TRAILING_NEWLINES)) throw new Error("node-llama-cpp's JSON grammar no longer ends with its blank lines: update plainJsonGrammar");
  return gbnf.replaceAll(EXPONENT, "").replace(TRAILING_NEWLINES, "");
}
