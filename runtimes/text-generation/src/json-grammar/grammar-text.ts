import type { GbnfJsonSchema } from "node-llama-cpp";
import type { JsonGrammarSchema } from "./schema";

/** Numbers in llama.cpp JSON grammars without exponents: "5e-1" is no integer, and "1e99999" parses as Infinity. */
const EXPONENT = ' ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?';
/** node-llama-cpp ends its JSON grammars with blank lines for its own chat loop to stop at; the grammar here ends at the value. */
const TRAILING_NEWLINES = ' "\\n\\n\\n\\n" [\\n]*';

/** A schema node-llama-cpp writes whole (no values of svc's own GBNF). */
export const wholeSchema = (schema: GbnfJsonSchema): JsonGrammarSchema => ({ schema, leaves: {}, rules: [], documented: schema });

/**
 * The grammar of a schema: node-llama-cpp's GBNF for it (`gbnf`), ending with the value, with
 * numbers written without exponents, each placeholder's literal replaced by svc's GBNF of the
 * value, and the rules those refer to.
 */
export function jsonGrammarText(gbnf: string, { leaves, rules }: Pick<JsonGrammarSchema, "leaves" | "rules">): string {
  if (!gbnf.includes(TRAILING_NEWLINES)) throw new Error("node-llama-cpp's JSON grammar no longer ends with its blank lines: update jsonGrammarText");
  let text = gbnf.replaceAll(EXPONENT, "").replace(TRAILING_NEWLINES, "");
  for (const [placeholder, leaf] of Object.entries(leaves)) {
    const literal = `"\\"${placeholder}\\""`;
    if (!text.includes(literal)) throw new Error(`node-llama-cpp's JSON grammar no longer writes a const as ${literal}: update jsonGrammarText`);
    text = text.replaceAll(literal, `(${leaf})`);
  }
  return [text, ...rules].join("\n");
}
