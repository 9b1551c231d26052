import { automatonGbnf, lengthAutomaton, MAX_STATES, patternAutomaton, product, type Automaton } from "./automaton";
import { patternGbnf } from "./pattern";
import { PatternError } from "./regex-parser";
import { formatPattern, STRING_FORMATS } from "./string-formats";

type Json = Record<string, unknown>;
type Refuse = (path: string, why: string) => never;

/** A value's GBNF: an expression, and the rules it refers to. */
export interface Written {
  gbnf: string;
  rules: string[];
}

/**
 * GBNF of a string schema's values under its `pattern`, `format` and `minLength`/`maxLength`, or
 * undefined where node-llama-cpp's own rule serves (lengths alone, or none). One pattern (a format
 * is one) is written as it reads (pattern.ts); a pattern with a format or lengths as the product of
 * their automata (automaton.ts), which every value written matches at once.
 */
export function stringLeafGbnf(node: Json, path: string, refuse: Refuse, name: string): Written | undefined {
  const patterns: Array<{ key: string; pattern: string }> = [];
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== "string") refuse(`${path}.pattern`, "must be a string");
    patterns.push({ key: "pattern", pattern: node.pattern as string });
  }
  if (node.format !== undefined) {
    const pattern = typeof node.format === "string" ? formatPattern(node.format) : undefined;
    if (pattern === undefined) refuse(`${path}.format`, `format ${JSON.stringify(node.format)} is not supported (only ${STRING_FORMATS.join(", ")})`);
    patterns.push({ key: "format", pattern: pattern! });
  }
  if (patterns.length === 0) return undefined;
  const [min, max] = [node.minLength as number | undefined, node.maxLength as number | undefined];
  const parsed = (key: string, read: () => Automaton | string) => {
    try {
      return read();
    } catch (error) {
      if (error instanceof PatternError) return refuse(`${path}.${key}`, error.message);
      throw error;
    }
  };
  if (patterns.length === 1 && min === undefined && max === undefined) return { gbnf: parsed(patterns[0].key, () => patternGbnf(patterns[0].pattern)) as string, rules: [] };

  const key = patterns[0].key;
  let automaton = parsed(key, () => patternAutomaton(patterns[0].pattern)) as Automaton | undefined;
  const others = [...patterns.slice(1).map(({ key: other, pattern }) => parsed(other, () => patternAutomaton(pattern)) as Automaton)];
  if (min !== undefined || max !== undefined) others.push(lengthAutomaton(min ?? 0, max));
  for (const other of others) automaton = automaton && product(automaton, other);
  const together = [...patterns.map((constraint) => constraint.key), ...(min !== undefined ? ["minLength"] : []), ...(max !== undefined ? ["maxLength"] : [])].join(", ");
  if (!automaton) return refuse(`${path}.${key}`, `${together} together make a grammar of more than ${MAX_STATES} states; loosen one of them`);
  return automatonGbnf(automaton, name) ?? refuse(`${path}.${key}`, `no string satisfies ${together} together`);
}
