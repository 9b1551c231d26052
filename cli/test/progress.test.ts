import { expect, test } from "bun:test";
import { formatBytes, formatDuration, ProgressDisplay } from "../src/output/progress";

test("bytes and durations read like a person would write them", () => {
  expect(formatBytes(512)).toBe("512 B");
  expect(formatBytes(1536)).toBe("1.50 KiB");
  expect(formatBytes(123 * 1024 * 1024)).toBe("123.0 MiB");
  expect(formatDuration(75)).toBe("01:15");
  expect(formatDuration(3725)).toBe("1:02:05");
  expect(formatDuration(Number.NaN)).toBe("--:--");
});

test("on a terminal the bar is redrawn in place with rate and time left", () => {
  let clock = 0;
  const written: string[] = [];
  const display = new ProgressDisplay({ tty: true, write: (t) => written.push(t), line: () => {}, now: () => clock, columns: 100 });
  display.update(0, 10 * 1024 * 1024);
  clock = 1000;
  display.update(1024 * 1024, 10 * 1024 * 1024);
  display.finish();
  expect(written[1]).toStartWith("\r\x1b[K[####");
  expect(written[1]).toContain("1.00 MiB / 10.0 MiB   10%  1.00 MiB/s  00:09 left");
  expect(written.at(-1)).toBe("\n");
});

test("elsewhere, plain lines every 10 %", () => {
  let clock = 0;
  const lines: string[] = [];
  const display = new ProgressDisplay({ tty: false, write: () => {}, line: (t) => lines.push(t), now: () => clock });
  for (let done = 0; done <= 100; done += 5) {
    clock += 100;
    display.update(done, 100);
  }
  display.finish();
  expect(lines.length).toBe(11);
  expect(lines.every((l) => !l.includes("\r"))).toBe(true);
  expect(lines.at(-1)).toContain("100 B / 100 B  100%");
});
