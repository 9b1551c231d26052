/**
 * `svc model add --include/--exclude`: the same meaning as huggingface-cli's (huggingface_hub's
 * allow/ignore patterns): each pattern is matched with Python's fnmatch against a file's path in
 * the repo, so `*` and `?` also match `/` (`*.json` takes `sub/x.json` too), `[seq]`/`[!seq]` are
 * character sets, there is no escape character, and a pattern ending in `/` means everything under
 * that folder. A file is kept when it matches some include pattern (or none is given) and no
 * exclude pattern. Matching is case-sensitive, as fnmatch is on Linux.
 */

type Token = { kind: "star" } | { kind: "any" } | { kind: "char"; char: string } | { kind: "set"; negated: boolean; items: [string, string][] };

/** Splits a pattern the way fnmatch.translate does; an unclosed `[` is a literal `[`. */
function tokenize(pattern: string): Token[] {
  const chars = [...pattern];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; ) {
    const c = chars[i++];
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "[") {
      let j = i;
      if (chars[j] === "!") j++;
      if (chars[j] === "]") j++;
      while (j < chars.length && chars[j] !== "]") j++;
      if (j >= chars.length) {
        tokens.push({ kind: "char", char: "[" });
        continue;
      }
      const negated = chars[i] === "!";
      const body = chars.slice(negated ? i + 1 : i, j);
      const items: [string, string][] = [];
      for (let k = 0; k < body.length; ) {
        if (body[k + 1] === "-" && k + 2 < body.length) {
          items.push([body[k], body[k + 2]]);
          k += 3;
        } else {
          items.push([body[k], body[k]]);
          k++;
        }
      }
      tokens.push({ kind: "set", negated, items });
      i = j + 1;
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

function matchesOne(token: Token, char: string): boolean {
  switch (token.kind) {
    case "any":
      return true;
    case "char":
      return token.char === char;
    case "set": {
      const code = char.codePointAt(0)!;
      const inSet = token.items.some(([lo, hi]) => lo.codePointAt(0)! <= code && code <= hi.codePointAt(0)!);
      return inSet !== token.negated;
    }
    default:
      return false;
  }
}

/** Python's fnmatch.fnmatchcase(path, pattern). */
export function fnmatch(path: string, pattern: string): boolean {
  const tokens = tokenize(pattern);
  const chars = [...path];
  // Greedy match with backtracking to the last `*` (linear for fnmatch's one-star-class patterns).
  let t = 0;
  let p = 0;
  let starAt = -1;
  let starP = 0;
  while (p < chars.length) {
    const token = tokens[t];
    if (token?.kind === "star") {
      starAt = t++;
      starP = p;
    } else if (token && matchesOne(token, chars[p])) {
      t++;
      p++;
    } else if (starAt >= 0) {
      t = starAt + 1;
      p = ++starP;
    } else return false;
  }
  while (tokens[t]?.kind === "star") t++;
  return t === tokens.length;
}

/** A pattern as huggingface_hub reads it: one ending in `/` is a folder and gets `*`. */
const asGiven = (pattern: string) => (pattern.endsWith("/") ? `${pattern}*` : pattern);

export interface FilePatterns {
  include?: string[];
  exclude?: string[];
}

/** Whether a repo path is downloaded under these patterns. */
export function selected(path: string, { include, exclude }: FilePatterns): boolean {
  if (include && include.length > 0 && !include.some((pattern) => fnmatch(path, asGiven(pattern)))) return false;
  if (exclude && exclude.some((pattern) => fnmatch(path, asGiven(pattern)))) return false;
  return true;
}
