const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/** "512 B", "1.50 KiB", "123.0 MiB": sizes as the CLI and the UI both show them. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
}

/** `n` in thousands (K), millions (M), billions (B)… with three significant digits: "494M", "8.03B", "70.6B". */
function significant(n: number, units: string[], step: number, space: string): string {
  let unit = 0;
  let value = n;
  while (value >= step && unit < units.length - 1) {
    value /= step;
    unit++;
  }
  // 999.6 rounds to 1000: the next unit says it in three digits.
  if (unit > 0 && Number(value.toPrecision(3)) >= step && unit < units.length - 1) {
    value /= step;
    unit++;
  }
  if (unit === 0) return `${n}${space}${units[0]}`.trimEnd();
  const rounded = Number(value.toPrecision(3));
  return `${rounded.toFixed(rounded < 10 ? 2 : rounded < 100 ? 1 : 0)}${space}${units[unit]}`;
}

/** A model's weight size as model cards give it, in decimal units: "16.1 GB", "988 MB". */
export function formatDecimalBytes(bytes: number): string {
  return significant(bytes, ["B", "kB", "MB", "GB", "TB", "PB"], 1000, " ");
}

/** A parameter count as model names give it: "494M", "8.03B", "70.6B", "405B"; plain below a thousand. */
export function formatParameterCount(count: number): string {
  return significant(count, ["", "K", "M", "B", "T"], 1000, "");
}
