import { Type, type TLiteral, type TUnion } from "@sinclair/typebox";

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/** A typebox union of the literal strings of `values`, so each list is written once. */
export function literalUnion<const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnion<Literals<T>> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<Literals<T>>;
}
