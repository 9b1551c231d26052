/**
 * Sets of characters (code point ranges) and their GBNF inside a JSON string: a character that
 * JSON must escape (`"`, `\`, control characters) is written as its escape, so the decoded string
 * holds exactly the set's characters.
 */

/** Sorted, disjoint, inclusive code point ranges. */
export type CharSet = Array<[number, number]>;

export const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: [number, number] = [0xd800, 0xdfff];

export function normalize(ranges: CharSet): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: CharSet = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export function complement(set: CharSet): CharSet {
  const result: CharSet = [];
  let next = 0;
  for (const [from, to] of normalize(set)) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const minus = (set: CharSet, removed: CharSet) => intersect(set, complement(removed));

export function intersect(a: CharSet, b: CharSet): CharSet {
  const result: CharSet = [];
  for (const [aFrom, aTo] of normalize(a)) {
    for (const [bFrom, bTo] of normalize(b)) {
      const [from, to] = [Math.max(aFrom, bFrom), Math.min(aTo, bTo)];
      if (from <= to) result.push([from, to]);
    }
  }
  return result;
}

export const DIGITS: CharSet = [[0x30, 0x39]];
export const WORD: CharSet = normalize([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
/** ECMAScript's `\s`. */
export const SPACE: CharSet = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** What `.` matches: all but the line terminators. */
export const ANY_BUT_LINE_ENDS = complement([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);
export const ANY: CharSet = [[0, MAX_CODE_POINT]];

/** The short escapes JSON has; every other control character is written `\u00XX`. */
const SHORT_ESCAPES = new Map([
  [0x22, '\\"'],
  [0x5c, "\\\\"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
]);
/** Characters written as an escape: `"`, `\`, the C0 controls and DEL. */
const ESCAPED: CharSet = [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c], [0x7f, 0x7f]];

const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");

/** A code point inside a GBNF character class or string literal: letters and digits as they are, all else escaped. */
function gbnfChar(code: number): string {
  if (/[A-Za-z0-9]/.test(String.fromCodePoint(code))) return String.fromCodePoint(code);
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\U${hex(code, 8)}`;
}

/** The JSON escape of `code` as a GBNF string literal. */
function escapeLiteral(code: number): string {
  const escape = SHORT_ESCAPES.get(code) ?? `\\u${hex(code, 4)}`;
  return `"${[...escape].map((char) => gbnfChar(char.codePointAt(0)!)).join("")}"`;
}

/** GBNF of one character of `set` as written in a JSON string; undefined for an empty set. */
export function charSetGbnf(set: CharSet): string | undefined {
  const raw = minus(minus(set, ESCAPED), [SURROGATES]);
  const alternatives: string[] = [];
  if (raw.length === 1 && raw[0][0] === raw[0][1]) alternatives.push(`"${gbnfChar(raw[0][0])}"`);
  else if (raw.length) alternatives.push(`[${raw.map(([from, to]) => (from === to ? gbnfChar(from) : `${gbnfChar(from)}-${gbnfChar(to)}`)).join("")}]`);
  const escaped = intersect(set, ESCAPED);
  const allControls = escaped.some(([from, to]) => from === 0 && to === 0x1f);
  // Every control character at once: \u0000 to \u001f.
  if (allControls) alternatives.push(`"${gbnfChar(0x5c)}u00" [01] [0-9a-f]`);
  for (const [from, to] of escaped) {
    for (let code = allControls ? Math.max(from, 0x20) : from; code <= to; code++) alternatives.push(escapeLiteral(code));
  }
  if (alternatives.length === 0) return undefined;
  return alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(" | ")})`;
}
