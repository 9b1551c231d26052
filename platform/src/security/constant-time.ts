import { createHash, timingSafeEqual } from "node:crypto";

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function secretsEqual(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
