import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check as TypeCheck<T>;
}

/** Each field where `value` differs from `schema`: `<path>: <what is wrong> (got <value>)`. Empty when it matches. */
export function shapeMismatches(schema: TSchema, value: unknown): string[] {
  const byPath = new Map<string, string>();
  for (const error of checkerFor(schema).Errors(value)) {
    const path = error.path || "/";
    if (!byPath.has(path)) byPath.set(path, `${path}: ${error.message} (got ${JSON.stringify(error.value)?.slice(0, 120)})`);
  }
  return [...byPath.values()];
}

/** Throws an error naming every wrong field when `value` does not have the shape `schema` describes. */
export function assertShape<T extends TSchema>(schema: T, value: unknown, what: string): asserts value is Static<T> {
  const mismatches = shapeMismatches(schema, value);
  if (mismatches.length > 0) throw new Error(`${what} does not match its OpenAI schema:\n  ${mismatches.join("\n  ")}\nin ${JSON.stringify(value).slice(0, 2000)}`);
}
