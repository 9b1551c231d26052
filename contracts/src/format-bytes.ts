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
