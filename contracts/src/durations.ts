/**
 * A duration as the CLI takes it: units (`5s`, `30m`, `2h`, `1d`, `1h30m`) or a clock like
 * Slurm's --time (`MM:SS`, `HH:MM:SS`, `D-HH:MM:SS`); a bare number is minutes, as in Slurm.
 */
export const DURATION_PATTERN = "^(\\d+|(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?|\\d+:\\d{1,2}|\\d+:\\d{1,2}:\\d{1,2}|\\d+-\\d+(:\\d{1,2}(:\\d{1,2})?)?)$";
const UNITS = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Seconds in `text`, or undefined when it is not a duration (see DURATION_PATTERN). */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (!value || !new RegExp(DURATION_PATTERN).test(value)) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 60;
  const units = UNITS.exec(value);
  if (units) {
    const [, d = "0", h = "0", m = "0", s = "0"] = units;
    return ((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s);
  }
  const [days, clock] = value.includes("-") ? value.split("-") : ["0", value];
  const parts = clock.split(":").map(Number);
  // D-HH, D-HH:MM, D-HH:MM:SS start with hours; MM:SS and HH:MM:SS as Slurm reads them.
  const [h, m, s] = value.includes("-") ? [parts[0], parts[1] ?? 0, parts[2] ?? 0] : parts.length === 3 ? parts : [0, parts[0], parts[1]];
  return ((Number(days) * 24 + h) * 60 + m) * 60 + s;
}

/** `1800` → "30 min"; `5` → "5 s"; `5400` → "1 h 30 min" (for reasons and details). */
export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (s || parts.length === 0) parts.push(`${s} s`);
  return parts.join(" ");
}
