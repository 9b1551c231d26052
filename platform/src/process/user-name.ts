import { readFileSync } from "node:fs";
import { userInfo } from "node:os";

/**
 * The name of the user this process runs as. Bun's os.userInfo() can answer "unknown", so the
 * environment and then /etc/passwd (by uid) are asked too; the uid itself is the last resort.
 */
export function currentUserName(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.USER || env.LOGNAME;
  if (fromEnv) return fromEnv;
  try {
    const name = userInfo().username;
    if (name && name !== "unknown") return name;
  } catch {
    // no passwd entry
  }
  const uid = process.getuid?.() ?? -1;
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[2] === String(uid));
    if (line) return line.split(":")[0];
  } catch {
    // no /etc/passwd
  }
  return `uid ${uid}`;
}
