/**
 * Whether the machine's CPU has room for one more test file: the share of all cores' time left idle
 * over the last `windowMs`, read from /proc/stat. Where /proc/stat cannot be read there is never room,
 * and the runner keeps to its fixed number of files.
 */
import { readFileSync } from "node:fs";

interface Sample {
  at: number;
  idle: number;
  total: number;
}

/** The aggregate `cpu` line: user nice system idle iowait irq softirq steal (guest time is inside user). */
export function parseProcStat(text: string): { idle: number; total: number } | undefined {
  const line = text.split("\n").find((row) => row.startsWith("cpu "));
  const ticks = line?.trim().split(/\s+/).slice(1, 9).map(Number);
  if (!ticks || ticks.length < 5 || ticks.some((tick) => !Number.isFinite(tick))) return undefined;
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((sum, tick) => sum + tick, 0) };
}

export function idleShare(older: { idle: number; total: number }, newer: { idle: number; total: number }): number {
  const total = newer.total - older.total;
  return total > 0 ? (newer.idle - older.idle) / total : 0;
}

export interface CpuRoom {
  hasRoom(): boolean;
  stop(): void;
}

export function watchCpuRoom(minIdle: number, windowMs = 3000, everyMs = 500, read = () => readFileSync("/proc/stat", "utf8")): CpuRoom {
  const samples: Sample[] = [];
  const take = () => {
    let counts: ReturnType<typeof parseProcStat>;
    try {
      counts = parseProcStat(read());
    } catch {
      counts = undefined;
    }
    if (!counts) return;
    const at = performance.now();
    samples.push({ at, ...counts });
    while (samples.length > 2 && samples[1]!.at <= at - windowMs) samples.shift();
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    hasRoom() {
      const [oldest, newest] = [samples[0], samples.at(-1)];
      if (!oldest || !newest || newest.at - oldest.at < windowMs * 0.9) return false;
      return idleShare(oldest, newest) >= minIdle;
    },
    stop: () => clearInterval(timer),
  };
}
