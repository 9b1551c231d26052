export type Cell = string | number | boolean | null | undefined;

/** Renders rows as aligned columns under upper-case headers; null and undefined show as `None` (spec §2.4). */
export function formatTable(headers: string[], rows: Cell[][]): string {
  const text = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? "None" : String(cell))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...text.map(line)].join("\n");
}
