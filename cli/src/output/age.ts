const UNITS: [string, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "5 seconds ago", "3 hours ago": the relative ages of `svc ls` (spec §2.4). */
export function relativeAge(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 1) return "just now";
  const [unit, size] = UNITS.find(([, size]) => seconds >= size)!;
  const count = Math.floor(seconds / size);
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}
