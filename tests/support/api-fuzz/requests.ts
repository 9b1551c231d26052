/**
 * Requests for one operation of the API document, as fast-check arbitraries: valid ones (every part
 * as its schema allows, with the token) and invalid ones (one part broken: the token, the body, a
 * path or query parameter), each saying what was broken.
 */
import fc, { type Arbitrary } from "fast-check";
import type { DocumentedOperation } from "../api-document";
import { brokenValue, resolve, validValue, type Schema, type SchemaContext } from "./values";

export interface FuzzRequest {
  method: string;
  /** Path and query, e.g. /api/services?all=true. */
  target: string;
  body?: string;
  token: "right" | "none" | "wrong";
  /** What makes the request invalid; undefined for a valid one. */
  broken?: string;
}

interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: Schema;
}

/** A query or path value as the URL carries it. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** Parameter values the schema refuses, as text (in a URL every value is text, so a wrong JSON type is no break for a string). */
function brokenParameterValue(schema: Schema, ctx: SchemaContext, label: string): Arbitrary<{ value: string; why: string }> | undefined {
  const s = resolve(schema, ctx);
  const candidates: Array<{ value: string; why: string }> = [];
  if (s.type === "boolean") candidates.push({ value: "maybe", why: `${label} is not true or false` });
  if (s.type === "integer" || s.type === "number") {
    candidates.push({ value: "x", why: `${label} is not a number` });
    if (typeof s.maximum === "number") candidates.push({ value: String(s.maximum + 1), why: `${label} is above ${s.maximum}` });
    if (typeof s.minimum === "number") candidates.push({ value: String(s.minimum - 1), why: `${label} is below ${s.minimum}` });
  }
  if (Array.isArray(s.enum)) candidates.push({ value: "not-one-of-them", why: `${label} is not one of ${s.enum.join(", ")}` });
  if (typeof s.maxLength === "number") candidates.push({ value: "a".repeat(s.maxLength + 1), why: `${label} is longer than ${s.maxLength}` });
  return candidates.length > 0 ? fc.constantFrom(...candidates) : undefined;
}

function bodySchema(operation: DocumentedOperation): { schema: Schema; required: boolean } | undefined {
  const body = operation.operation.requestBody;
  const schema = body?.content?.["application/json"]?.schema;
  return schema ? { schema, required: Boolean(body.required) } : undefined;
}

function buildTarget(path: string, pathValues: Record<string, string>, query: Record<string, string | undefined>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name]));
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return search ? `${filled}?${search}` : filled;
}

/** Valid and invalid requests of `operation`; `invalid` is undefined when nothing about it can be wrong. */
export function requestArbitraries(op: DocumentedOperation, ctx: SchemaContext): { valid: Arbitrary<FuzzRequest>; invalid?: Arbitrary<FuzzRequest> } {
  const parameters = (op.operation.parameters ?? []) as Parameter[];
  const pathParameters = parameters.filter((p) => p.in === "path");
  const queryParameters = parameters.filter((p) => p.in === "query");
  const body = bodySchema(op);
  const isPublic = Array.isArray(op.operation.security) && op.operation.security.length === 0;

  // A path segment cannot be empty, "." or ".." (URLs resolve those before they are sent).
  const segment = (p: Parameter) => validValue(p.schema, ctx, p.name).map(asText).filter((text) => text !== "" && text !== "." && text !== "..");
  const pathValues = fc.record(Object.fromEntries(pathParameters.map((p) => [p.name, segment(p)]))) as Arbitrary<Record<string, string>>;
  const queryValues = fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, validValue(p.schema, ctx, p.name).map(asText)])), {
    requiredKeys: queryParameters.filter((p) => p.required).map((p) => p.name),
  }) as Arbitrary<Record<string, string>>;
  const bodyValue: Arbitrary<string | undefined> = !body
    ? fc.constant(undefined)
    : body.required
      ? validValue(body.schema, ctx).map((value) => JSON.stringify(value))
      : fc.option(validValue(body.schema, ctx).map((value) => JSON.stringify(value)), { nil: undefined });

  const valid = fc.tuple(pathValues, queryValues, bodyValue).map(([path, query, text]): FuzzRequest => ({ method: op.method, target: buildTarget(op.path, path, query), body: text, token: "right" }));

  const invalid: Array<Arbitrary<FuzzRequest>> = [];
  if (!isPublic) {
    invalid.push(valid.chain((request) => fc.constantFrom<FuzzRequest["token"]>("none", "wrong").map((token) => ({ ...request, token, broken: `token: ${token}` }))));
  }
  if (body) {
    const notJson = fc.constantFrom("{", '{"a": [1, 2', "[", "undefined", "{'single': 'quotes'}");
    invalid.push(fc.tuple(valid, notJson).map(([request, text]) => ({ ...request, body: text, broken: `body is not JSON: ${text}` })));
    const brokenBody = brokenValue(body.schema, ctx, "body");
    if (brokenBody) invalid.push(fc.tuple(valid, brokenBody).map(([request, b]) => ({ ...request, body: JSON.stringify(b.value), broken: b.why })));
  }
  for (const parameter of [...pathParameters, ...queryParameters]) {
    const broken = brokenParameterValue(parameter.schema, ctx, parameter.in === "path" ? `{${parameter.name}}` : `?${parameter.name}`);
    if (!broken) continue;
    invalid.push(
      fc.tuple(pathValues, queryValues, bodyValue, broken).map(([path, query, text, b]): FuzzRequest => {
        const target = parameter.in === "path" ? buildTarget(op.path, { ...path, [parameter.name]: b.value }, query) : buildTarget(op.path, path, { ...query, [parameter.name]: b.value });
        return { method: op.method, target, body: text, token: "right", broken: b.why };
      }),
    );
  }
  return { valid, invalid: invalid.length > 0 ? fc.oneof(...invalid) : undefined };
}
