/** Stream events gathered into fewer socket writes: nothing lost, nothing reordered, the first never held. */
import { expect, test } from "bun:test";
import { CoalescingWriter } from "../src/coalescing-writer";

const recorder = () => {
  const writes: string[] = [];
  return { writes, out: (text: string) => writes.push(text) };
};

test("the first write goes out at once; later ones within the window wait and go out together, in order", () => {
  const { writes, out } = recorder();
  const writer = new CoalescingWriter(out, 60_000);
  writer.write("a");
  expect(writes).toEqual(["a"]);
  writer.write("b");
  writer.write("c");
  expect(writes).toEqual(["a"]);
  writer.writeNow("end");
  expect(writes).toEqual(["a", "bcend"]);
});

test("with no window every write goes out as it comes", () => {
  const { writes, out } = recorder();
  const writer = new CoalescingWriter(out, 0);
  for (const text of ["a", "b", "c"]) writer.write(text);
  expect(writes).toEqual(["a", "b", "c"]);
});

test("what is held goes out by itself when the writes pause", async () => {
  const { writes, out } = recorder();
  const writer = new CoalescingWriter(out, 5);
  writer.write("a");
  writer.write("b");
  const deadline = Date.now() + 5_000;
  while (writes.length < 2 && Date.now() < deadline) await Bun.sleep(5);
  expect(writes).toEqual(["a", "b"]);
});
