import { expect, test } from "bun:test";
import { relativeAge } from "../src/output/age";

test("ages in the largest whole unit, singular or plural; none yet (or a clock ahead) is just now", () => {
  const now = Date.parse("2026-11-22T12:00:00.000Z");
  const ago = (seconds: number) => relativeAge(new Date(now - seconds * 1000).toISOString(), now);
  expect([ago(0), ago(0.5), ago(-30), ago(1), ago(59), ago(60), ago(3_599), ago(7_200), ago(86_400), ago(3 * 86_400 + 5)]).toEqual([
    "just now",
    "just now",
    "just now",
    "1 second ago",
    "59 seconds ago",
    "1 minute ago",
    "59 minutes ago",
    "2 hours ago",
    "1 day ago",
    "3 days ago",
  ]);
});
