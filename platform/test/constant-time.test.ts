import { expect, test } from "bun:test";
import { secretsEqual } from "../src/security/constant-time";

test("secretsEqual: equal only when the same text, whichever secret was checked before", () => {
  // Two secrets checked in turn (the auth token, a session's MAC): the remembered digest of the last one must not answer for the other.
  for (let round = 0; round < 2; round++) {
    expect(secretsEqual("token-a", "token-a")).toBe(true);
    expect(secretsEqual("token-a", "token-b")).toBe(false);
    expect(secretsEqual("token-b", "token-b")).toBe(true);
    expect(secretsEqual("token-b", "token-a")).toBe(false);
  }
  expect(secretsEqual("token", "token-longer")).toBe(false);
  expect(secretsEqual("", "token")).toBe(false);
  expect(secretsEqual(null, "token")).toBe(false);
  expect(secretsEqual(undefined, "token")).toBe(false);
});
