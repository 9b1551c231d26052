import type { probeHealth } from "./health-probe";

/** How often a starting local service's /health is tried between the loop's ticks. */
export const WATCH_INTERVAL_MS = 5;

export interface WatchTarget {
  id: string;
  host: string;
  port: number;
}

/**
 * Between the loop's ticks, tries the health check of each service starting on this machine (Docker,
 * loopback) every WATCH_INTERVAL_MS, and wakes the loop at the first 200: HEALTHY is then recorded a
 * few milliseconds after the server answers, while the loop itself (an engine inspect each time) looks
 * only every FAST_TICK_MS and leaves the CPU to the starting server. A refused connection costs next to nothing.
 */
export class HealthWatch {
  private targets: WatchTarget[] = [];
  private timer: Timer | undefined;
  private probing = false;

  constructor(
    private readonly probe: typeof probeHealth,
    private readonly wake: () => void,
  ) {}

  /** Watches these services from now on (none: stops). */
  watch(targets: WatchTarget[]) {
    this.targets = targets;
    if (targets.length === 0) this.stop();
    else this.timer ??= setTimeout(() => this.round(), WATCH_INTERVAL_MS);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.targets = [];
  }

  private async round() {
    this.timer = undefined;
    if (this.probing || this.targets.length === 0) return;
    this.probing = true;
    const answered = await Promise.all(this.targets.map((target) => this.probe(target.host, target.port, 1000).catch(() => false)));
    this.probing = false;
    if (answered.some(Boolean)) {
      this.targets = [];
      this.wake();
    } else if (this.targets.length > 0) this.timer ??= setTimeout(() => this.round(), WATCH_INTERVAL_MS);
  }
}
