/** Which process listens on a port, and how much CPU a process has used: read from /proc (Linux); a one-line Bun server in its own process. */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { freePort } from "@svc/testing";
import { until } from "./measure";

/** `code(port)`, a Bun.serve one-liner, run in its own process (with `env` added to this one's); resolves once `ready(url)` says it answers. */
export async function bunServer(code: (port: number) => string, ready: (url: string) => Promise<boolean>, env: Record<string, string> = {}) {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, "-e", code(port)], { stdout: "ignore", stderr: "ignore", env: { ...process.env, ...env } });
  const url = `http://127.0.0.1:${port}`;
  await until(() => ready(url), 10_000, 20);
  return { url, stop: async () => (proc.kill(), await proc.exited) };
}

const TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** The pids of the processes holding the socket listening on TCP `port` (nginx: its master and worker). */
export function listenerPids(port: number): number[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address "ADDR:PORT", state 0A = LISTEN, inode at index 9
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A") inodes.add(fields[9]!);
    }
  }
  const pids: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith("socket:[") && inodes.has(target.slice(8, -1))) {
          pids.push(Number(pid));
          break;
        }
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  if (pids.length === 0) throw new Error(`no process listens on port ${port}`);
  return pids;
}

/** CPU time (user + system) the processes `pids` have used so far, in ms. */
export function cpuMs(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // after "pid (comm) ": state is field 0, utime field 11, stime field 12
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
