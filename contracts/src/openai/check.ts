import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { documentMismatches } from "./document/mismatches";

/** A field where svc's answer differs from OpenAI's document on purpose, and why. */
export interface DocumentDifference {
  /** The JSON pointers it covers, e.g. /choices/\d+/finish_reason. */
  path: RegExp;
  why: string;
}

const documented = new WeakMap<TSchema, { name: string; differences: DocumentDifference[] }>();

/**
 * `shape`, naming its schema in OpenAI's document (`inDocument("Response", Type.Object({…}))`),
 * which shapeMismatches checks it against too, but for the `differences` given with their reasons.
 */
export function inDocument<T extends TSchema>(name: string, shape: T, differences: DocumentDifference[] = []): T {
  documented.set(shape, { name, differences });
  return shape;
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check as TypeCheck<T>;
}

/**
 * Each field where `value` differs from `schema` (`<path>: <what is wrong> (got <value>)`), and,
 * for a shape that names its schema in OpenAI's document, each field where it differs from that
 * schema as the document publishes it now (openai-answers.json), but for the differences the
 * shape declares with their reasons. Empty when it matches both.
 */
export function shapeMismatches(schema: TSchema, value: unknown): string[] {
  const byPath = new Map<string, string>();
  for (const error of checkerFor(schema).Errors(value)) {
    const path = error.path || "/";
    if (!byPath.has(path)) byPath.set(path, `${path}: ${error.message} (got ${JSON.stringify(error.value)?.slice(0, 120)})`);
  }
  const inDoc = documented.get(schema);
  for (const line of inDoc ? documentMismatches(inDoc.name, value) : []) {
    const path = line.slice(0, line.indexOf(": "));
    const allowed = inDoc!.differences.some((difference) => new RegExp(`^${difference.path.source}$`).test(path));
    if (!byPath.has(path) && !allowed) byPath.set(path, `${line} [OpenAI's ${inDoc!.name}]`);
  }
  return [...byPath.values()];
}

/** Throws an error naming every wrong field when `value` does not have the shape `schema` describes. */
export function assertShape<T extends TSchema>(schema: T, value: unknown, what: string): asserts value is Static<T> {
  const mismatches = shapeMismatches(schema, value);
  if (mismatches.length > 0) throw new Error(`${what} does not match its OpenAI schema:\n  ${mismatches.join("\n  ")}\nin ${JSON.stringify(value).slice(0, 2000)}`);
}
