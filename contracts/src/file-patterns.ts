/** The file patterns of `svc model add` as plain values (no schemas: the CLI loads this without typebox). */

/** `--include`/`--exclude` of `svc model add`: glob patterns with huggingface-cli's meaning. */
export const FILE_PATTERN_RULE =
  "fnmatch-style glob patterns on the file's path in the repo, as huggingface-cli's --include/--exclude: * and ? also match /, [seq] and [!seq] are sets, a pattern ending in / takes a whole folder";
/** The patterns as the options that give them, for messages: `--include '*.gguf' --exclude 'old/'`. */
export function describeFilePatterns({ include = [], exclude = [] }: { include?: string[]; exclude?: string[] }): string {
  return [...include.map((p) => `--include '${p}'`), ...exclude.map((p) => `--exclude '${p}'`)].join(" ");
}
