import { ANY_BUT_LINE_ENDS, complement, DIGITS, normalize, SPACE, WORD, type CharSet } from "./char-sets";

/**
 * The ECMAScript regular expressions of JSON schema `pattern`s that a grammar can hold, parsed:
 * characters, escapes and classes (`\d`, `\w`, `\s`, `[a-z]`, `[^…]`, `.`), groups (`(…)`,
 * `(?:…)`, `(?<name>…)`), alternation, the quantifiers `?` `*` `+` `{n}` `{n,}` `{n,m}` (lazy ones
 * alike), and `^`/`$` at the ends of the pattern or of its top-level alternatives. What a grammar
 * cannot hold (lookarounds, backreferences, word boundaries, Unicode property classes) is a
 * PatternError saying which.
 */
export class PatternError extends Error {}

export type Node = { kind: "chars"; set: CharSet } | { kind: "group"; alternatives: Node[][] } | { kind: "repeat"; node: Node; min: number; max: number | undefined };

/** One top-level alternative: what it matches, and whether it is anchored at the start (^) and end ($). */
export interface Branch {
  nodes: Node[];
  start: boolean;
  end: boolean;
}

/** `pattern`'s top-level alternatives, parsed. */
export function parsePattern(pattern: string): Branch[] {
  return topLevelAlternatives(pattern).map(({ body, start, end }) => ({ nodes: new Parser(body).whole(), start, end }));
}

/** The pattern's top-level alternatives, each with its anchors taken off. */
function topLevelAlternatives(pattern: string): Array<{ body: string; start: boolean; end: boolean }> {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") i++;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "|" && depth === 0) {
      parts.push(pattern.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(pattern.slice(from));
  return parts.map((part) => {
    const start = part.startsWith("^");
    const end = part.endsWith("$") && !isEscaped(part, part.length - 1);
    return { body: part.slice(start ? 1 : 0, end ? -1 : undefined), start, end };
  });
}

const isEscaped = (text: string, at: number) => {
  let slashes = 0;
  while (at - 1 - slashes >= 0 && text[at - 1 - slashes] === "\\") slashes++;
  return slashes % 2 === 1;
};


const ESCAPE_SETS: Record<string, CharSet> = { d: DIGITS, D: complement(DIGITS), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, v: 0x0b, "0": 0x00 };
const single = (code: number): CharSet => [[code, code]];

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  whole(): Node[] {
    const nodes = this.alternation();
    if (this.at < this.source.length) throw new PatternError(`unbalanced ")" at ${this.at}`);
    return nodes;
  }

  private alternation(): Node[] {
    const alternatives: Node[][] = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      alternatives.push(this.sequence());
    }
    return alternatives.length === 1 ? alternatives[0] : [{ kind: "group", alternatives }];
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") nodes.push(this.quantified(this.atom()));
    return nodes;
  }

  private quantified(node: Node): Node {
    while (true) {
      const rest = this.source.slice(this.at);
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      let min: number;
      let max: number | undefined;
      if (rest[0] === "*") [min, max] = [0, undefined];
      else if (rest[0] === "+") [min, max] = [1, undefined];
      else if (rest[0] === "?") [min, max] = [0, 1];
      else if (braces) [min, max] = [Number(braces[1]), braces[2] === undefined ? Number(braces[1]) : braces[3] ? Number(braces[3]) : undefined];
      else return node;
      if (max !== undefined && max < min) throw new PatternError(`the quantifier ${braces![0]} has its numbers out of order`);
      this.at += braces ? braces[0].length : 1;
      if (this.peek() === "?") this.at++;
      node = { kind: "repeat", node, min, max };
    }
  }

  private atom(): Node {
    const char = this.source[this.at++];
    switch (char) {
      case "(":
        return this.group();
      case "[":
        return { kind: "chars", set: this.charClass() };
      case ".":
        return { kind: "chars", set: ANY_BUT_LINE_ENDS };
      case "\\":
        return { kind: "chars", set: this.escape(false) };
      case "^":
      case "$":
        throw new PatternError(`"${char}" is supported only at the start (^) or end ($) of the pattern or of one of its top-level alternatives`);
      case "*":
      case "+":
      case "?":
        throw new PatternError(`"${char}" at ${this.at - 1} repeats nothing`);
      default: {
        const code = this.source.codePointAt(this.at - 1)!;
        if (code > 0xffff) this.at++;
        return { kind: "chars", set: single(code) };
      }
    }
  }

  private group(): Node {
    if (this.source.startsWith("?", this.at)) {
      const named = /^\?<([A-Za-z_$][\w$]*)>/.exec(this.source.slice(this.at));
      if (this.source.startsWith("?:", this.at)) this.at += 2;
      else if (named) this.at += named[0].length;
      else if (/^\?<?[=!]/.test(this.source.slice(this.at))) throw new PatternError("lookarounds ((?=…), (?!…), (?<=…), (?<!…)) cannot be written by a grammar");
      else throw new PatternError(`the group "(${this.source.slice(this.at, this.at + 3)}" is not supported`);
    }
    const nodes = this.alternation();
    if (this.source[this.at++] !== ")") throw new PatternError('a group lacks its ")"');
    return { kind: "group", alternatives: [nodes] };
  }

  private charClass(): CharSet {
    const negated = this.peek() === "^";
    if (negated) this.at++;
    const ranges: CharSet = [];
    while (this.at < this.source.length && this.peek() !== "]") {
      const from = this.classMember();
      if (this.peek() === "-" && this.source[this.at + 1] !== "]" && this.at + 1 < this.source.length && from.length === 1 && from[0][0] === from[0][1]) {
        this.at++;
        const to = this.classMember();
        if (to.length !== 1 || to[0][0] !== to[0][1]) throw new PatternError("a class range ends in a class escape");
        if (to[0][0] < from[0][0]) throw new PatternError("a class range is out of order");
        ranges.push([from[0][0], to[0][0]]);
      } else ranges.push(...from);
    }
    if (this.source[this.at++] !== "]") throw new PatternError('a character class lacks its "]"');
    if (!negated && ranges.length === 0) throw new PatternError("the class [] matches no character");
    return negated ? complement(ranges) : normalize(ranges);
  }

  private classMember(): CharSet {
    const code = this.source.codePointAt(this.at)!;
    this.at += code > 0xffff ? 2 : 1;
    return code === 0x5c ? this.escape(true) : single(code);
  }

  /** The escape after a backslash; in a class, `\b` is the backspace. */
  private escape(inClass: boolean): CharSet {
    const char = this.source[this.at++];
    if (char === undefined) throw new PatternError("the pattern ends in a backslash");
    if (ESCAPE_SETS[char]) return ESCAPE_SETS[char];
    if (char in CONTROL_ESCAPES && !(char === "0" && /\d/.test(this.peek() ?? ""))) return single(CONTROL_ESCAPES[char]);
    if (char === "b" && inClass) return single(0x08);
    if (char === "b" || char === "B") throw new PatternError("word boundaries (\\b, \\B) cannot be written by a grammar");
    if (/\d/.test(char) || char === "k") throw new PatternError("backreferences cannot be written by a grammar");
    if (char === "p" || char === "P") throw new PatternError("Unicode property classes (\\p{…}) are not supported");
    if (char === "c") throw new PatternError("control escapes (\\cX) are not supported");
    if (char === "x") return single(this.hex(/^[0-9a-fA-F]{2}/, "\\x needs two hex digits"));
    if (char === "u") {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.source.slice(this.at));
      if (braced) {
        this.at += braced[0].length;
        return single(parseInt(braced[1], 16));
      }
      return single(this.hex(/^[0-9a-fA-F]{4}/, "\\u needs four hex digits"));
    }
    return single(char.codePointAt(0)!);
  }

  private hex(digits: RegExp, why: string): number {
    const found = digits.exec(this.source.slice(this.at));
    if (!found) throw new PatternError(why);
    this.at += found[0].length;
    return parseInt(found[0], 16);
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }
}
