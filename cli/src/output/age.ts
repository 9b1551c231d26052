const UNIT_NAMES = ["day", "hour", "minute", "second"];
const UNIT_SECONDS = [86_400, 3_600, 60, 1];

/**
 * "5 seconds ago", "3 hours ago": the relative ages of `svc ls` (spec §2.4). Written as a plain loop:
 * a command runs it twice per row once, before any of it is compiled, where a callback per unit cost
 * twice as much.
 */
export function relativeAge(iso: string, now = Date.now()): string {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000);
  for (let i = 0; i < UNIT_SECONDS.length; i++) {
    if (seconds < UNIT_SECONDS[i]) continue;
    const count = Math.floor(seconds / UNIT_SECONDS[i]);
    return `${count} ${UNIT_NAMES[i]}${count === 1 ? "" : "s"} ago`;
  }
  return "just now";
}
