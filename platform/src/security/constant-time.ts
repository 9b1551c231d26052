import { timingSafeEqual } from "node:crypto";

const sha256 = (text: string) => Bun.SHA256.hash(text) as Uint8Array;

/** The digest of the last expected secret: the same one (the auth token, the internal secret) is checked on every request. */
let expectedText: string | undefined;
let expectedDigest: Uint8Array = new Uint8Array(0);

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function secretsEqual(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  if (expected !== expectedText) {
    expectedDigest = sha256(expected);
    expectedText = expected;
  }
  return timingSafeEqual(sha256(given), expectedDigest) && given.length === expected.length;
}
