/**
 * "Did you mean": the candidates closest to what someone typed, for an unknown command, option or
 * model. Shared by the CLI (commands, options) and orchestrator-svc (models of a profile).
 */

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** How many edits still count as a near miss of a word this long (a third of it, at least 1). */
const tolerance = (word: string) => Math.max(1, Math.floor(word.length / 3));

/** The candidates within a near miss of `word` (case ignored), closest first. */
export function closest(word: string, candidates: readonly string[]): string[] {
  const typed = word.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(typed, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance > 0 && (distance <= tolerance(candidate) || (typed.length >= 3 && candidate.toLowerCase().startsWith(typed))))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .map(({ candidate }) => candidate);
}

/**
 * Registered repo ids that `typed` most likely means: one it is the name part of (`tiny-llama-gguf`
 * → `svc-tiny/tiny-llama-gguf`), or a near miss of the whole id or of its name part.
 */
export function closestRepos(typed: string, repos: readonly string[]): string[] {
  const lower = typed.toLowerCase();
  const scored = repos.flatMap((repo) => {
    const id = repo.toLowerCase();
    if (id === lower) return [];
    const name = id.slice(id.indexOf("/") + 1);
    if (name === lower || id.endsWith(`/${lower}`)) return [{ repo, score: 0 }];
    const whole = editDistance(lower, id);
    const part = lower.includes("/") ? Number.POSITIVE_INFINITY : editDistance(lower, name);
    const best = Math.min(whole, part);
    const limit = tolerance(whole <= part ? id : name);
    return best <= limit ? [{ repo, score: best }] : [];
  });
  return scored.sort((a, b) => a.score - b.score || a.repo.localeCompare(b.repo)).map(({ repo }) => repo);
}

/** " Did you mean X?" (or "X or Y?"), or "" when nothing is close. */
export function didYouMean(suggestions: readonly string[], quote: (text: string) => string = (text) => text): string {
  const shown = suggestions.slice(0, 3).map(quote);
  if (shown.length === 0) return "";
  return ` Did you mean ${shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}`}?`;
}
