/**
 * Numbers of a JSON schema as exact decimals, so that a bound such as `0.1` means the decimal 0.1
 * the schema's author wrote (what a validator compares a written answer against), not a binary
 * fraction near it.
 */
export interface Decimal {
  negative: boolean;
  /** The digits before the point. */
  int: bigint;
  /** The digits after the point, without trailing zeros ("" for an integer). */
  frac: string;
}

const trimZeros = (digits: string) => digits.replace(/0+$/, "");

/** `value` (finite) as the decimal JavaScript writes it: `1e-7` is 0.0000001. */
export function decimalOf(value: number): Decimal {
  const [mantissa, exponentText] = String(Math.abs(value)).toLowerCase().split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const exponent = Number(exponentText ?? 0);
  const digits = whole + fraction;
  const point = whole.length + exponent;
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : point > digits.length ? digits + "0".repeat(point - digits.length) : digits;
  const at = Math.max(point, 1);
  const int = BigInt(padded.slice(0, at) || "0");
  const frac = trimZeros(padded.slice(at));
  return { negative: value < 0 && (int > 0n || frac !== ""), int, frac };
}

/** The decimal written as JSON writes numbers: `-12.5`, `0`, `0.25`. */
export const decimalText = (value: Decimal) => `${value.negative ? "-" : ""}${value.int}${value.frac ? `.${value.frac}` : ""}`;

export const isZero = (value: Decimal) => value.int === 0n && value.frac === "";

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const sign = (value: Decimal) => (isZero(value) ? 0 : value.negative ? -1 : 1);
  if (sign(a) !== sign(b)) return Math.sign(sign(a) - sign(b));
  const magnitude = compareMagnitudes(a, b);
  return sign(a) < 0 ? -magnitude : magnitude;
}

/** Compares |a| and |b|. */
export function compareMagnitudes(a: Pick<Decimal, "int" | "frac">, b: Pick<Decimal, "int" | "frac">): number {
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  const width = Math.max(a.frac.length, b.frac.length);
  const [x, y] = [a.frac.padEnd(width, "0"), b.frac.padEnd(width, "0")];
  return x === y ? 0 : x < y ? -1 : 1;
}

/** The value times 10^places, as an integer (`places` at least its digits after the point). */
export function scaled(value: Decimal, places: number): bigint {
  const magnitude = value.int * 10n ** BigInt(places) + BigInt(value.frac.padEnd(places, "0") || "0");
  return value.negative ? -magnitude : magnitude;
}

/** `units` / 10^places as a decimal. */
export function unscaled(units: bigint, places: number): Decimal {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  return { negative, int: BigInt(digits.slice(0, digits.length - places)), frac: trimZeros(digits.slice(digits.length - places)) };
}
