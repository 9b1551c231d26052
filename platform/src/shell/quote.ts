const SAFE = /^[A-Za-z0-9_\/:=.,@%+-]+$/;

/** Quotes one word for a POSIX shell so it stays exactly one inert argument, whatever it contains. */
export function shellQuote(word: string): string {
  if (word.includes("\0")) throw new Error("a shell argument cannot contain a NUL byte");
  if (SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Quotes every word and joins them into one command line. */
export const shellJoin = (words: string[]) => words.map(shellQuote).join(" ");
