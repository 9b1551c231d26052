/**
 * Type-level comparison of the client's `Operations` with the `paths` that openapi-typescript
 * generates from the served OpenAPI document. `Mismatches<paths, Operations>` is `never` when they
 * agree, else a union of lines naming each difference (tsc prints them).
 */

type Method = "get" | "put" | "post" | "delete" | "patch";

/** Mutually assignable, and objects have the same keys (so that an optional field on one side only counts). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;
type HasIndex<T> = string extends keyof T ? true : false;
type SameKeys<A, B> = [A] extends [object]
  ? [B] extends [object]
    ? HasIndex<A> extends true
      ? true
      : HasIndex<B> extends true
        ? true
        : [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never]
          ? Exclude<{ [K in keyof A & keyof B]: Same<A[K], B[K]> }[keyof A & keyof B], true> extends never
            ? true
            : false
          : false
    : true
  : true;

/** Every operation of the document, as `METHOD /path`. */
type DocumentedKeys<P> = {
  [Path in keyof P & string]: { [M in Method]: M extends keyof P[Path] ? ([NonNullable<P[Path][M]>] extends [never] ? never : `${Uppercase<M>} ${Path}`) : never }[Method];
}[keyof P & string];

type OperationOf<P, K> = K extends `${infer M} ${infer Path}` ? (Path extends keyof P ? (Lowercase<M> extends keyof P[Path] ? NonNullable<P[Path][Lowercase<M>]> : never) : never) : never;

/** An answer's body: its JSON or text content, `void` without content. */
type ContentOf<R> = R extends { content: { "application/json": infer T } } ? T : R extends { content: { "text/plain": infer T } } ? T : void;
type Responses<Op> = Op extends { responses: infer R } ? R : never;
type SuccessOf<Op> = { [S in keyof Responses<Op>]: S extends 200 | 201 | 202 | 204 ? ContentOf<Responses<Op>[S]> : never }[keyof Responses<Op>];
type JsonBody<B> = [B] extends [never] ? never : B extends { content: { "application/json": infer T } } ? T : never;
type BodyOf<Op> = Op extends { requestBody?: infer B } ? JsonBody<NonNullable<B>> : never;
type ParameterOf<Op, In extends string> = Op extends { parameters: infer P } ? (In extends keyof P ? NonNullable<P[In]> : never) : never;

type Field<T, F extends string> = F extends keyof T ? T[F] : never;

type Differences<Op, O, K extends string> =
  | (Same<SuccessOf<Op>, Field<O, "response">> extends true ? never : `${K}: the success answer differs`)
  | (Same<BodyOf<Op>, Field<O, "body">> extends true ? never : `${K}: the request body differs`)
  | (Same<ParameterOf<Op, "query">, Field<O, "query">> extends true ? never : `${K}: the query differs`)
  | (Same<ParameterOf<Op, "path">, Field<O, "params">> extends true ? never : `${K}: the path parameters differ`);

export type Mismatches<P, O> =
  | `${Exclude<DocumentedKeys<P>, keyof O & string>}: in the document, but the client does not send it`
  | `${Exclude<keyof O & string, DocumentedKeys<P>>}: sent by the client, but not in the document`
  | { [K in keyof O & DocumentedKeys<P>]: Differences<OperationOf<P, K>, O[K], K> }[keyof O & DocumentedKeys<P>];
