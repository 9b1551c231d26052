import { describe, expect, test } from "bun:test";
import { pytestCounts } from "./python-tests";

const report = (attributes: string) => `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" ${attributes} time="1.0"></testsuite></testsuites>`;

describe("the counts npm test adds for pytest", () => {
  test("passed and failed tests, errors and skips counting as failed", () => {
    expect(pytestCounts(report('errors="0" failures="0" skipped="0" tests="35"'), 0)).toEqual({ passed: 35, failed: 0 });
    expect(pytestCounts(report('errors="1" failures="2" skipped="1" tests="35"'), 1)).toEqual({ passed: 31, failed: 4 });
  });

  test("no tests collected (exit code 5) is a failure", () => {
    expect(pytestCounts(report('errors="0" failures="0" skipped="0" tests="0"'), 5)).toEqual({ passed: 0, failed: 1 });
  });

  test("a run that wrote no report, or exited non-zero with nothing failed, is a failure", () => {
    expect(pytestCounts(undefined, 2)).toEqual({ passed: 0, failed: 1 });
    expect(pytestCounts(report('errors="0" failures="0" skipped="0" tests="3"'), 1)).toEqual({ passed: 3, failed: 1 });
  });
});
