import { expect, test } from "bun:test";
import { formatTable } from "../src/output/table";

test("columns are aligned under upper-case headers and missing values show as None", () => {
  const text = formatTable(["service id", "port", "name"], [["0d3e-4f", 8080, "svc-1"], ["a1b2c3d4e5f6a", null, "x"]]);
  expect(text.split("\n")).toEqual([
    "SERVICE ID     PORT  NAME",
    "0d3e-4f        8080  svc-1",
    "a1b2c3d4e5f6a  None  x",
  ]);
});

test("a column is as wide as its widest cell or header; the last is not padded, nor a cell beyond the headers", () => {
  const text = formatTable(["a", "bb", "c"], [["xxxx", "y", "z"], ["", true, 0, "extra"]]);
  expect(text.split("\n")).toEqual(["A     BB    C", "xxxx  y     z", "      true  0  extra"]);
});
