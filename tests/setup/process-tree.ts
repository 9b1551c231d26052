/**
 * Ends a test file that ran past its bound with everything it started: the processes below it
 * (also those in sessions of their own, such as an app started under setsid, found by parent
 * before any is killed) and the containers labelled with its name (tests/support/test-file-label.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { TEST_FILE_LABEL } from "@svc/testing/test-file-label";

/** Every process's parent, from /proc (a process gone meanwhile is skipped). */
function parents(): Map<number, number> {
  const found = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name in parentheses may hold spaces: the fields after its closing one are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      found.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  return found;
}

/** `pid` and every process below it, parents before children. */
export function processTree(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) byParent.set(parent, [...(byParent.get(parent) ?? []), child]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(byParent.get(tree[i]!) ?? []));
  return tree;
}

export function killTree(pid: number) {
  for (const member of processTree(pid)) {
    try {
      process.kill(member, "SIGKILL");
    } catch {}
  }
}

/** Removes the containers that the test file `file` started (by their label). */
export function removeContainersOf(file: string) {
  const listed = Bun.spawnSync(["docker", "ps", "-aq", "--filter", `label=${TEST_FILE_LABEL}=${file}`], { stdout: "pipe", stderr: "ignore" });
  const ids = listed.stdout.toString().split("\n").filter(Boolean);
  if (ids.length > 0) Bun.spawnSync(["docker", "rm", "-f", ...ids], { stdout: "ignore", stderr: "ignore" });
}
