/** `[####------]`: `fraction` (clamped to 0…1) of `width` characters filled. */
export function textBar(fraction: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}

const LEVELS = "▁▂▃▄▅▆▇█";

/** One character per value against `max`: `·` for nothing, then ▁ to █ (anything above nothing shows). */
export function sparkline(values: number[], max: number): string {
  return values.map((value) => (value <= 0 ? "·" : LEVELS[Math.min(LEVELS.length - 1, Math.ceil((value / Math.max(max, 1)) * LEVELS.length) - 1)])).join("");
}
