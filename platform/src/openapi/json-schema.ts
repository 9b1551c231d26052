import type { TSchema } from "@sinclair/typebox";

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = Record<string, unknown>;

/**
 * Key of a success schema whose answer is not JSON (e.g. `text/plain` for a log stream): the
 * document gives that media type instead of application/json. See `textAnswer`.
 */
export const MEDIA_TYPE_KEY = "x-svc-media-type";

const OPTIONAL = Symbol.for("TypeBox.Optional");

/** Whether a typebox schema was wrapped in Optional (an optional request body). */
export const isOptional = (schema: TSchema): boolean => (schema as unknown as Record<symbol, unknown>)[OPTIONAL] === "Optional";

/** A body without content (typebox Void / Undefined): a 204 answer. */
export const isNoContent = (schema: JsonSchema): boolean => schema.type === "void" || schema.type === "undefined";

/**
 * Elysia's coercing query and path types (`t.Integer`, `t.Numeric`, …) are unions with a string of a
 * special format that the HTTP layer converts; the document gives the type the value has.
 */
function withoutCoercion(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf;
  if (!Array.isArray(options)) return schema;
  const kept = options.filter((option: JsonSchema) => !(option.type === "string" && typeof option.format === "string" && "default" in option));
  if (kept.length === options.length) return schema;
  const { anyOf: _, ...outer } = schema;
  return kept.length === 1 ? { ...outer, ...kept[0] } : { ...outer, anyOf: kept };
}

/** typebox writes a choice of strings as a union of constants; the document gives it as an enum. */
function asEnum(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf;
  const isConstant = (option: JsonSchema) => Object.keys(option).every((key) => key === "const" || key === "type") && typeof option.const === "string";
  if (!Array.isArray(options) || options.length === 0 || !options.every(isConstant)) return schema;
  const { anyOf: _, ...outer } = schema;
  return { ...outer, type: "string", enum: options.map((option: JsonSchema) => option.const) };
}

/**
 * Plain JSON Schema of a typebox schema for the document: typebox's symbols dropped, Elysia's
 * coercion unions reduced to their type, unions of strings as enums, and every sub-schema with an `$id` replaced by a `$ref` to
 * `#/components/schemas/<$id>`, which `components` receives (so each named contract appears once).
 */
export function toDocumentSchema(schema: TSchema, components: Record<string, JsonSchema>): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== "object") return node;
    let object = asEnum(withoutCoercion(node as JsonSchema));
    const id = object.$id;
    if (typeof id === "string") {
      const { $id: _, ...rest } = object;
      if (!(id in components)) {
        components[id] = {}; // reserved first, so a schema that contains itself ends
        components[id] = visitObject(rest);
      }
      return { $ref: `#/components/schemas/${id}` };
    }
    object = visitObject(object);
    return object;
  };
  const visitObject = (object: JsonSchema): JsonSchema => Object.fromEntries(Object.entries(object).map(([key, value]) => [key, visit(value)]));
  // JSON round trip: typebox keeps Kind/Optional as symbol keys, which are not part of the schema.
  return visit(JSON.parse(JSON.stringify(schema))) as JsonSchema;
}
