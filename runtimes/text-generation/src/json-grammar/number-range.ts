import { compareMagnitudes, type Decimal } from "./decimal";

/**
 * GBNF of the JSON numbers within bounds, exactly: the integer part as a union of digit ranges
 * (123..4567 is 12[3-9] | 1[3-9][0-9] | [2-9][0-9]{2} | [1-3][0-9]{3} | 4[0-4][0-9]{2} | …), and at
 * the bounds' own integer parts, the fraction compared with the bound's digit by digit. Numbers are
 * written as node-llama-cpp writes them: at most 16 digits before the point, no exponent.
 */

export interface Bound {
  value: Decimal;
  /** exclusiveMinimum / exclusiveMaximum. */
  strict: boolean;
}

/** Numbers are below 10^16: node-llama-cpp's longest integer part is 16 digits. */
const DIGITS_CAP = 16;
const ZERO = { negative: false, int: 0n, frac: "" };

interface Magnitude {
  int: bigint;
  frac: string;
  strict: boolean;
}

/**
 * The numbers between `low` and `high` (either may be absent) written with at most
 * `fractionDigits` digits after the point (0: integers), each followed by `zeros` zeros when it is
 * not 0 (a multiple of 10^zeros, given bounds divided by it). Undefined when no number fits.
 */
export function numberRangeGbnf(low: Bound | undefined, high: Bound | undefined, fractionDigits: number, zeros = 0): string | undefined {
  const cap: Bound = { value: { negative: false, int: 10n ** BigInt(DIGITS_CAP - zeros), frac: "" }, strict: true };
  const capped = (bound: Bound): Magnitude =>
    compareMagnitudes(bound.value, cap.value) >= 0 ? { ...magnitudeOf(cap.value), strict: true } : { ...magnitudeOf(bound.value), strict: bound.strict };
  const alternatives: string[] = [];
  const below = (bound: Bound | undefined) => bound !== undefined && bound.value.negative;
  // Negative numbers: their magnitudes run from -high (or 0) to -low.
  if (low === undefined || below(low)) {
    const from: Magnitude = high === undefined || !below(high) ? { int: 0n, frac: "", strict: true } : { ...magnitudeOf(high.value), strict: high.strict };
    const to: Magnitude = low === undefined ? capped(cap) : capped(low);
    const grammar = magnitudeGbnf(from, to, fractionDigits, zeros);
    if (grammar) alternatives.push(`"-" (${grammar})`);
  }
  if (high === undefined || !below(high)) {
    const from: Magnitude = low === undefined || below(low) ? { ...ZERO, strict: false } : capped(low);
    const to: Magnitude = high === undefined ? capped(cap) : capped(high);
    const grammar = magnitudeGbnf(from, to, fractionDigits, zeros);
    if (grammar) alternatives.push(`(${grammar})`);
  }
  return alternatives.length ? alternatives.join(" | ") : undefined;
}

const magnitudeOf = (value: Decimal) => ({ int: value.int, frac: value.frac });

/** Digit strings of the magnitudes from `from` to `to`, as alternatives; undefined when there are none. */
function magnitudeGbnf(from: Magnitude, to: Magnitude, fractionDigits: number, zeros: number): string | undefined {
  const order = compareMagnitudes(from, to);
  if (order > 0 || (order === 0 && (from.strict || to.strict))) return undefined;
  const zeroSuffix = zeros > 0 ? ` "0"{${zeros}}` : "";
  const integerPart = (a: bigint, b: bigint) => {
    const parts: string[] = [];
    if (a === 0n) parts.push('"0"');
    const rest = integerRange(a === 0n ? 1n : a, b);
    if (rest) parts.push(`(${rest})${zeroSuffix}`);
    return parts.join(" | ");
  };
  const withFraction = (integer: string, fraction: Fraction) => {
    const suffix = fractionSuffix(fraction);
    return suffix === undefined ? undefined : `(${integer})${suffix}`;
  };
  const alternatives: Array<string | undefined> = [];
  if (from.int === to.int) {
    alternatives.push(withFraction(integerPart(from.int, from.int), fractionRange({ digits: from.frac, strict: from.strict }, { digits: to.frac, strict: to.strict }, fractionDigits)));
  } else {
    alternatives.push(withFraction(integerPart(from.int, from.int), fractionRange({ digits: from.frac, strict: from.strict }, undefined, fractionDigits)));
    if (from.int + 1n <= to.int - 1n) alternatives.push(withFraction(integerPart(from.int + 1n, to.int - 1n), fractionRange(undefined, undefined, fractionDigits)));
    alternatives.push(withFraction(integerPart(to.int, to.int), fractionRange(undefined, { digits: to.frac, strict: to.strict }, fractionDigits)));
  }
  const present = alternatives.filter((alternative): alternative is string => alternative !== undefined);
  return present.length ? present.join(" | ") : undefined;
}

/** The integers from `a` to `b` (1 <= a), as GBNF alternatives without leading zeros; "" when a > b. */
export function integerRange(a: bigint, b: bigint): string {
  const parts: string[] = [];
  for (let length = a.toString().length; length <= b.toString().length; length++) {
    const lo = a > 10n ** BigInt(length - 1) ? a : 10n ** BigInt(length - 1);
    const hi = b < 10n ** BigInt(length) - 1n ? b : 10n ** BigInt(length) - 1n;
    if (lo <= hi) parts.push(sameLengthRange(lo.toString(), hi.toString()));
  }
  return parts.join(" | ");
}

const anyDigits = (count: number) => (count === 0 ? "" : count === 1 ? " [0-9]" : ` [0-9]{${count}}`);
const digitClass = (a: number, b: number) => (a === b ? `"${a}"` : `[${a}-${b}]`);

/** Digit strings of one length from x to y (x <= y). */
function sameLengthRange(x: string, y: string): string {
  if (x === y) return `"${x}"`;
  if (x[0] === y[0]) return `"${x[0]}" (${sameLengthRange(x.slice(1), y.slice(1))})`;
  const rest = x.length - 1;
  const [first, last] = [Number(x[0]), Number(y[0])];
  const fromZeros = /^0*$/.test(x.slice(1));
  const toNines = /^9*$/.test(y.slice(1));
  const parts: string[] = [];
  if (!fromZeros) parts.push(`"${first}" (${sameLengthRange(x.slice(1), "9".repeat(rest))})`);
  const [middleFrom, middleTo] = [fromZeros ? first : first + 1, toNines ? last : last - 1];
  if (middleFrom <= middleTo) parts.push(digitClass(middleFrom, middleTo) + anyDigits(rest));
  if (!toNines) parts.push(`"${last}" (${sameLengthRange("0".repeat(rest), y.slice(1))})`);
  return parts.join(" | ");
}

/** A fraction bound: its digits after the point (no trailing zeros), and whether it is excluded. */
interface FractionBound {
  digits: string;
  strict: boolean;
}

/** A set of digit strings (the digits after the point): whether the empty one is in it, and GBNF of the others. */
interface Fraction {
  empty: boolean;
  /** Alternatives, each starting with a digit; none when only "" (or nothing) is in the set. */
  digits: string[];
}

/** `.digits` after the integer part: optional where "" is in the set; undefined when the set is empty. */
function fractionSuffix(fraction: Fraction): string | undefined {
  if (fraction.digits.length === 0) return fraction.empty ? "" : undefined;
  const dotted = ` ("." (${fraction.digits.join(" | ")}))`;
  return fraction.empty ? `${dotted}?` : dotted;
}

/**
 * The digit strings D of at most `budget` digits with low < 0.D < high (<= where not strict),
 * built digit by digit: a first digit above the low bound's frees the rest from it, one equal to it
 * keeps comparing.
 */
function fractionRange(low: FractionBound | undefined, high: FractionBound | undefined, budget: number): Fraction {
  if (low && low.digits === "" && !low.strict) low = undefined;
  if (high && high.digits === "" && high.strict) return { empty: false, digits: [] };
  const empty = low === undefined;
  if (budget === 0) return { empty, digits: [] };
  if (!low && !high) return { empty: true, digits: [`[0-9]${budget > 1 ? `{1,${budget}}` : ""}`] };
  const branches: Array<{ digit: number; rest: string }> = [];
  for (let digit = 0; digit <= 9; digit++) {
    const lowDigit = low ? Number(low.digits[0] ?? 0) : -1;
    const highDigit = high ? Number(high.digits[0] ?? 0) : 10;
    if (digit < lowDigit || digit > highDigit) continue;
    const nextLow = low && digit === lowDigit ? { digits: low.digits.slice(1), strict: low.strict } : undefined;
    const nextHigh = high && digit === highDigit ? { digits: high.digits.slice(1), strict: high.strict } : undefined;
    const rest = fractionRange(nextLow, nextHigh, budget - 1);
    if (!rest.empty && rest.digits.length === 0) continue;
    const tail = rest.digits.length === 0 ? "" : ` (${rest.digits.join(" | ")})${rest.empty ? "?" : ""}`;
    branches.push({ digit, rest: tail });
  }
  // Neighbouring digits followed by the same set are one character class.
  const digits: string[] = [];
  for (let i = 0; i < branches.length; ) {
    let j = i;
    while (j + 1 < branches.length && branches[j + 1].digit === branches[j].digit + 1 && branches[j + 1].rest === branches[i].rest) j++;
    digits.push(digitClass(branches[i].digit, branches[j].digit) + branches[i].rest);
    i = j + 1;
  }
  return { empty, digits };
}
