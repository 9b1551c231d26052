/**
 * docs/gpu-sizing.md shows svc's GPU table as gpu-table.ts holds it: every type, its names, its
 * memory, where the figure comes from and its other sizes, so that the page cannot drift from the code.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GPU_TABLE, type GpuTableEntry } from "../src/gpu-table";

const PAGE = join(import.meta.dir, "../../docs/gpu-sizing.md");
const HEADER = ["| GPU | Type names | GiB | Source of the figure | Other sizes |", "| --- | --- | --- | --- | --- |"];

const row = (entry: GpuTableEntry) =>
  `| ${entry.model} | ${entry.names.map((name) => `\`${name}\``).join(", ")} | ${entry.memoryGiB} | ${entry.source} | ${entry.note ?? ""} |`;

/** The rows of the page's table: from its header to the first line that is not a table row. */
function pageTable(): string[] {
  const lines = readFileSync(PAGE, "utf8").split("\n");
  const start = lines.indexOf(HEADER[0]);
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && !line.startsWith("|"));
  return lines.slice(start, end < 0 ? undefined : end);
}

test("docs/gpu-sizing.md lists every GPU type of gpu-table.ts with its memory, source and other sizes", () => {
  const expected = [...HEADER, ...GPU_TABLE.map(row)];
  // On a failure, the expected lines are the table to paste into the page.
  expect(pageTable().join("\n")).toBe(expected.join("\n"));
  expect(GPU_TABLE.length).toBe(31);
});
