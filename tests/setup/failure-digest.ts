/**
 * The failed tests of a file's output, each with its error (bun prints the error, then the test's
 * `(fail)` line), without the source listing around it: printed again at the end of `npm test`,
 * because CI keeps only the end of a long run's output. Output with no `(fail)` line (a file that
 * crashed or was stopped, or pytest's) gives its last lines.
 */
const MAX_ERROR_LINES = 12;
const RESULT = /^\((pass|fail|skip|todo)\) /;
// bun's listing of the source around the failing line: "63 |   code", and the caret line under it.
const LISTING = /^\s*(\d+ \||\^\s*$)/;

export function failureDigest(output: string): string[] {
  const digests: string[] = [];
  let block: string[] = [];
  for (const line of output.split("\n")) {
    if (line.startsWith("(fail) ")) {
      const error = block.filter((text) => text.trim() !== "" && !LISTING.test(text)).slice(0, MAX_ERROR_LINES);
      digests.push([line, ...error.map((text) => `    ${text.trim()}`)].join("\n"));
    }
    if (RESULT.test(line) || /^\S+\.test\.\w+:$/.test(line)) block = [];
    else block.push(line);
  }
  if (digests.length > 0) return digests;
  const tail = output.split("\n").filter((text) => text.trim() !== "").slice(-MAX_ERROR_LINES);
  return tail.length > 0 ? [tail.map((text) => text.trimEnd()).join("\n")] : [];
}
