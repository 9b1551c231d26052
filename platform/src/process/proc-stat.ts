import { readFileSync } from "node:fs";

/** What /proc/PID/stat says about a process (Linux); undefined where there is no such file. */
export interface ProcStat {
  /** One letter: R running, S sleeping, … Z zombie (exited, not yet reaped by its parent), X dead. */
  state: string;
  /** Field 22: start time in clock ticks since boot, which tells a process from a later one with a recycled pid. */
  startTicks: number;
}

export function readProcStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0], startTicks: Number(fields[19]) };
}
