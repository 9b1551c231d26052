/**
 * The model card's YAML front matter (README.md between the first two `---` lines): the few
 * top-level keys svc reads, as a scalar (`key: value`) or the first item of a list (`key:` then
 * `- value`). Nothing else of YAML is needed for them.
 */
export function cardField(readme: string, key: string): string | undefined {
  const lines = readme.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return undefined;
  const unquote = (text: string) => text.replace(/\s+#.*$/, "").trim().replace(/^(["'])(.*)\1$/, "$2");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "---") return undefined;
    const match = new RegExp(`^${key}\\s*:(.*)$`).exec(line);
    if (!match) continue;
    const value = unquote(match[1]);
    if (value !== "" && value !== "[]") return value.replace(/^\[\s*["']?([^,"'\]]+)["']?.*\]$/, "$1").trim();
    const item = /^\s*-\s+(.*)$/.exec(lines[i + 1] ?? "");
    return item ? unquote(item[1]) || undefined : undefined;
  }
  return undefined;
}
