/** svc usage's text: each key against its limits (a bar per budget, a share per rate) and a line of tokens per hour per caller. */
import { describe, expect, test } from "bun:test";
import { NO_LIMITS } from "@svc/contracts";
import { spent, usageReportWith as report } from "@svc/testing";
import { sparkline, textBar } from "../src/output/bar";
import { hourLines } from "../src/commands/usage/hours";
import { allowanceLines, spentAgainst } from "../src/commands/usage/keys";

describe("bars", () => {
  test("a text bar is clamped to its width; a sparkline shows any use above nothing", () => {
    expect(textBar(0.25, 8)).toBe("[##------]");
    expect(textBar(1.7, 4)).toBe("[####]");
    expect(sparkline([0, 1, 50, 100], 100)).toBe("·▁▄█");
  });
  test("an amount against a limit: the share, and for a budget a bar; past the limit too", () => {
    expect(spentAgainst(1234, null)).toBe("1.23K");
    expect(spentAgainst(3, 60)).toBe("3/60 5%");
    expect(spentAgainst(2500, 10_000, true)).toBe("[###-------] 25% 2.50K/10.0K");
    expect(spentAgainst(1_200_000, 1_000_000, true)).toBe("[##########] 120% 1.20M/1.00M");
  });
});

describe("svc usage's sections", () => {
  test("the keys' table: limits where set, `-` for none in flight, removed keys marked", () => {
    const lines = allowanceLines(
      report({
        keys: [
          { name: "erin", keyId: "k1", kind: "key", limits: { requestsPerMinute: 60, tokensPerMinute: null, maxParallel: 4, dailyTokens: 10_000, monthlyTokens: null }, lastMinute: spent(3, 90), today: spent(40, 2500), month: spent(300, 150_000), refused429: 7 },
          { name: "fred", keyId: "k2", kind: "removed", limits: NO_LIMITS, lastMinute: spent(0, 0), today: spent(0, 0), month: spent(2, 20), refused429: 0 },
        ],
      }),
    );
    expect(lines.slice(1).join("\n").split("\n")).toEqual([
      "Keys against their limits at 2026-03-15 10:30 UTC (429s since 2026-03-08 10:30):",
      "KEY             REQUESTS/MIN  TOKENS/MIN  TOKENS TODAY                  TOKENS THIS MONTH  AT ONCE  429S",
      "erin            3/60 5%       90          [###-------] 25% 2.50K/10.0K  150K               4        7",
      "fred (removed)  0             0           0                             20                 -        0",
    ]);
  });

  test("tokens per hour: one scale for every caller, the busiest first; a week in 4-hour characters", () => {
    const hours = [
      { hour: "2026-03-15T10:00:00.000Z", key: "erin", requests: 2, tokens: 800 },
      { hour: "2026-03-14T11:00:00.000Z", key: "fred", requests: 1, tokens: 100 },
      { hour: "2026-03-15T09:00:00.000Z", key: "erin", requests: 1, tokens: 200 },
      { hour: "2026-03-15T09:00:00.000Z", key: "svc-token", requests: 1, tokens: 0 },
    ];
    expect(hourLines(report({ hourly: { window: "day", from: "2026-03-14T11:00:00.000Z", hours } }))).toEqual([
      "",
      "Tokens per hour over the last day (UTC, from 2026-03-14 11:00; █ = 800 tokens):",
      `erin  ${"·".repeat(22)}▂█  1.00K`,
      `fred  ▁${"·".repeat(23)}  100`,
    ]);
    const week = hourLines(report({ hourly: { window: "week", from: "2026-03-08T11:00:00.000Z", hours } }));
    expect(week[1]).toBe("Tokens per hour over the last week, a character every 4 hours (UTC, from 2026-03-08 11:00; █ = 1.00K tokens):");
    expect(week[2]).toBe(`erin  ${"·".repeat(41)}█  1.00K`);
    expect(hourLines(report({}))).toEqual(["", "No tokens through /v1 in the last day."]);
  });
});
