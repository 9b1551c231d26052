import { compareDecimals, decimalOf, decimalText, isZero, scaled, unscaled, type Decimal } from "./decimal";
import { numberRangeGbnf, type Bound } from "./number-range";

/** node-llama-cpp writes up to 16 digits after the point. */
const FRACTION_DIGITS = 16;
/** A multipleOf that is no power of ten is written as the list of its multiples, up to this many. */
export const MAX_LISTED_MULTIPLES = 256;

type Json = Record<string, unknown>;
type Refuse = (path: string, why: string) => never;

/**
 * GBNF of a `number` or `integer` schema's values under its bounds (`minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum`, the last two also in draft 4's boolean form) and
 * `multipleOf`, or undefined when it has none of them (node-llama-cpp's own rule serves).
 *
 * `multipleOf` is exact for a power of ten (10: trailing zeros; 0.01: at most two decimals) and,
 * otherwise, where the bounds hold at most MAX_LISTED_MULTIPLES multiples: they are listed.
 */
export function numberLeafGbnf(node: Json, path: string, refuse: Refuse): string | undefined {
  const integer = node.type === "integer";
  const low = bound(node, "minimum", "exclusiveMinimum", path, refuse, 1);
  const high = bound(node, "maximum", "exclusiveMaximum", path, refuse, -1);
  if (low === undefined && high === undefined && node.multipleOf === undefined) return undefined;
  const nothingFits = (): never =>
    refuse(path, `no ${integer ? "integer" : "number"} is ${[low && `${low.strict ? ">" : ">="} ${decimalText(low.value)}`, high && `${high.strict ? "<" : "<="} ${decimalText(high.value)}`].filter(Boolean).join(" and ")}${node.multipleOf !== undefined ? ` and a multiple of ${node.multipleOf}` : ""}`);
  const digits = integer ? 0 : FRACTION_DIGITS;
  if (node.multipleOf === undefined) return numberRangeGbnf(low, high, digits) ?? nothingFits();

  if (typeof node.multipleOf !== "number" || !Number.isFinite(node.multipleOf) || node.multipleOf <= 0) refuse(`${path}.multipleOf`, "must be a number above 0");
  const step = decimalOf(node.multipleOf as number);
  const power = powerOfTen(step);
  if (power !== undefined && power <= 0) return numberRangeGbnf(low, high, Math.min(digits, -power)) ?? nothingFits();
  if (power !== undefined) return numberRangeGbnf(low && shifted(low, power), high && shifted(high, power), 0, power) ?? nothingFits();
  const multiples = listedMultiples(step, low, high, integer);
  if (multiples === undefined) {
    return refuse(
      `${path}.multipleOf`,
      `a multipleOf that is no power of ten (1, 10, 0.01, …) is enforced by listing its multiples, which needs minimum and maximum holding at most ${MAX_LISTED_MULTIPLES} of them`,
    );
  }
  return multiples.length ? multiples.map((value) => `"${decimalText(value)}"`).join(" | ") : nothingFits();
}

/** The tighter of the inclusive and the exclusive bound on one side (`direction` 1: a minimum, -1: a maximum). */
function bound(node: Json, inclusiveKey: string, exclusiveKey: string, path: string, refuse: Refuse, direction: 1 | -1): Bound | undefined {
  const number = (key: string) => {
    const value = node[key];
    if (typeof value !== "number" || !Number.isFinite(value)) return refuse(`${path}.${key}`, "must be a number");
    return decimalOf(value);
  };
  const exclusive = node[exclusiveKey];
  const inclusive = node[inclusiveKey] === undefined ? undefined : { value: number(inclusiveKey), strict: exclusive === true };
  if (typeof exclusive === "boolean") {
    if (exclusive && !inclusive) refuse(`${path}.${exclusiveKey}`, `true (draft 4's form) needs ${inclusiveKey}`);
    return inclusive;
  }
  const strict = exclusive === undefined ? undefined : { value: number(exclusiveKey), strict: true };
  if (!inclusive || !strict) return inclusive ?? strict;
  const order = compareDecimals(strict.value, inclusive.value) * direction;
  return order >= 0 ? strict : inclusive;
}

/** k when `value` is 10^k, else undefined. */
function powerOfTen(value: Decimal): number | undefined {
  if (value.frac === "" && /^10*$/.test(value.int.toString())) return value.int.toString().length - 1;
  if (value.int === 0n && /^0*1$/.test(value.frac)) return -value.frac.length;
  return undefined;
}

/** The bound divided by 10^power (power >= 1). */
function shifted(bound: Bound, power: number): Bound {
  const digits = bound.value.int.toString().padStart(power + 1, "0");
  const frac = (digits.slice(digits.length - power) + bound.value.frac).replace(/0+$/, "");
  return { strict: bound.strict, value: { negative: bound.value.negative, int: BigInt(digits.slice(0, digits.length - power)), frac } };
}

/** The multiples of `step` within the bounds, or undefined when they are unbounded or too many to list. */
function listedMultiples(step: Decimal, low: Bound | undefined, high: Bound | undefined, integer: boolean): Decimal[] | undefined {
  if (!low || !high) return undefined;
  const places = Math.max(step.frac.length, low.value.frac.length, high.value.frac.length);
  const unit = scaled(step, places);
  const lowUnits = scaled(low.value, places);
  const highUnits = scaled(high.value, places);
  let first = ceilDiv(lowUnits, unit);
  if (low.strict && first * unit === lowUnits) first += 1n;
  let last = floorDiv(highUnits, unit);
  if (high.strict && last * unit === highUnits) last -= 1n;
  if (last - first + 1n > BigInt(MAX_LISTED_MULTIPLES)) return undefined;
  const values: Decimal[] = [];
  for (let k = first; k <= last; k++) {
    const value = unscaled(k * unit, places);
    if (!integer || value.frac === "") values.push(isZero(value) ? { ...value, negative: false } : value);
  }
  return values;
}

const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
const ceilDiv = (a: bigint, b: bigint) => -floorDiv(-a, b);
