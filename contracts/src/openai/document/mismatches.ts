import { OPENAI_ANSWERS } from "./answers";

/**
 * Each field where a value differs from a schema of OpenAI's document (openai-answers.json), as
 * `<JSON pointer>: <what the document says> (got <value>)`. The document's own JSON Schema subset
 * is read here: types (and `nullable`), `$ref`, `enum`/`const`, objects (`properties`, `required`,
 * `additionalProperties`), arrays (`items`, item counts), string lengths and patterns, number
 * bounds, and `allOf`/`anyOf`/`oneOf`. A union that the value matches in no branch is reported by
 * the branch its `type` (or the discriminator) names, else by the branch it comes closest to.
 * `oneOf` is read as `anyOf`: the document's unions overlap (a `{type: "message"}` item is more
 * than one of them).
 */

type Schema = Record<string, unknown>;
const REF_PREFIX = "#/components/schemas/";

const got = (value: unknown) => (value === undefined ? "absent" : (JSON.stringify(value)?.slice(0, 120) ?? String(value)));
const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The named schema of the document; throws for a name it does not define. */
export function documentSchema(name: string): Schema {
  const schema = OPENAI_ANSWERS.schemas[name];
  if (!schema) throw new Error(`OpenAI's document (as extracted in openai-answers.json) has no schema ${name}`);
  return schema as Schema;
}

/** The schema a `$ref` points to (with the referring schema's other keywords), through references to references. */
function resolve(schema: Schema): Schema {
  let resolved = schema;
  while (typeof resolved.$ref === "string" && resolved.$ref.startsWith(REF_PREFIX)) {
    const { $ref, ...rest } = resolved;
    resolved = { ...documentSchema(($ref as string).slice(REF_PREFIX.length)), ...rest };
  }
  return resolved;
}

function matchesType(type: string, value: unknown): boolean {
  const actual = typeOf(value);
  return type === actual || (type === "number" && actual === "integer");
}

/** Each mismatch of `value` (at `path`) against the document's schema `name`; empty when it matches. */
export function documentMismatches(name: string, value: unknown, path = ""): string[] {
  return mismatches(documentSchema(name), value, path);
}

function mismatches(input: Schema, value: unknown, path: string): string[] {
  const schema = resolve(input);
  const at = path || "/";
  if (schema.nullable === true && value === null) return [];
  const found: string[] = [];
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) found.push(...mismatches(part, value, path));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) found.push(...unionMismatches(schema, branches, value, path));

  const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type as string | string[]);
  if (types && !types.some((type) => matchesType(type, value))) return [...found, `${at}: the document says ${types.join(" or ")} (got ${got(value)})`];
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) found.push(`${at}: the document allows ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(", ")} (got ${got(value)})`);
  if ("const" in schema && schema.const !== value) found.push(`${at}: the document says ${JSON.stringify(schema.const)} (got ${got(value)})`);

  if (isObject(value)) found.push(...objectMismatches(schema, value, path));
  if (Array.isArray(value)) {
    if (isObject(schema.items)) value.forEach((item, index) => found.push(...mismatches(schema.items as Schema, item, `${path}/${index}`)));
    if (typeof schema.minItems === "number" && value.length < schema.minItems) found.push(`${at}: the document wants at least ${schema.minItems} items (got ${value.length})`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) found.push(`${at}: the document wants at most ${schema.maxItems} items (got ${value.length})`);
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof schema.minLength === "number" && length < schema.minLength) found.push(`${at}: the document wants at least ${schema.minLength} characters (got ${got(value)})`);
    if (typeof schema.maxLength === "number" && length > schema.maxLength) found.push(`${at}: the document wants at most ${schema.maxLength} characters (got ${got(value)})`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) found.push(`${at}: the document wants the pattern ${schema.pattern} (got ${got(value)})`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) found.push(`${at}: the document wants at least ${schema.minimum} (got ${value})`);
    if (typeof schema.maximum === "number" && value > schema.maximum) found.push(`${at}: the document wants at most ${schema.maximum} (got ${value})`);
  }
  return found;
}

function objectMismatches(schema: Schema, value: Record<string, unknown>, path: string): string[] {
  const found: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const key of (schema.required as string[] | undefined) ?? []) {
    if (!(key in value)) found.push(`${path}/${key}: the document requires it (got absent)`);
  }
  for (const [key, inner] of Object.entries(value)) {
    if (properties[key]) found.push(...mismatches(properties[key], inner, `${path}/${key}`));
    else if (schema.additionalProperties === false) found.push(`${path}/${key}: the document has no such field (got ${got(inner)})`);
    else if (isObject(schema.additionalProperties)) found.push(...mismatches(schema.additionalProperties, inner, `${path}/${key}`));
  }
  return found;
}

/** Nothing when a branch matches; else the mismatches of the branch the value names, or of the closest one. */
function unionMismatches(schema: Schema, branches: Schema[], value: unknown, path: string): string[] {
  const results = branches.map((branch) => ({ branch, found: mismatches(branch, value, path) }));
  if (results.some((result) => result.found.length === 0)) return [];
  const key = isObject(schema.discriminator) && typeof schema.discriminator.propertyName === "string" ? schema.discriminator.propertyName : "type";
  const named = isObject(value) ? results.find(({ branch }) => namesValue(branch, key, value[key])) : undefined;
  if (named) return named.found;
  const closest = results.reduce((best, result) => (result.found.length < best.found.length ? result : best));
  const allAtValue = results.every((result) => result.found.length === 1 && result.found[0].startsWith(`${path || "/"}: `));
  if (allAtValue) return [`${path || "/"}: the document allows ${results.map((result) => describe(result.branch)).join(" | ")} (got ${got(value)})`];
  return closest.found;
}

/** Whether the branch's `key` property is exactly the value's (its `type: "message"`). */
function namesValue(branch: Schema, key: string, tag: unknown): boolean {
  if (tag === undefined) return false;
  const schema = resolve(branch);
  const property = (schema.properties as Record<string, Schema> | undefined)?.[key];
  const parts = (schema.allOf as Schema[] | undefined) ?? [];
  if (property) {
    const resolved = resolve(property);
    return (Array.isArray(resolved.enum) && resolved.enum.includes(tag)) || resolved.const === tag;
  }
  return parts.some((part) => namesValue(part, key, tag));
}

function describe(branch: Schema): string {
  const schema = resolve(branch);
  if (typeof branch.$ref === "string") return branch.$ref.slice(REF_PREFIX.length);
  if (Array.isArray(schema.enum)) return schema.enum.map((allowed) => JSON.stringify(allowed)).join(" | ");
  return ([] as unknown[]).concat(schema.type ?? "a schema").join(" or ");
}
