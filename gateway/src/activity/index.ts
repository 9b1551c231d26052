import type { ActivityReport } from "@svc/contracts";

/** How often the gateway tells orchestrator-svc which services it passed requests to. */
export const ACTIVITY_REPORT_MS = 2000;

type Counts = ReadonlyMap<string, number>;

const NONE: Counts = new Map();

const sameCounts = (a: Counts, b: Counts) => a.size === b.size && [...a].every(([id, count]) => b.get(id) === count);

/**
 * The idle clocks of --idle-stop, as the gateway sees them: every request it passes to a service
 * (through /proxy/<id>/…, or /v1 for a model) calls `touch(serviceId)`, which only notes the time
 * here; every ACTIVITY_REPORT_MS the latest time per service goes to orchestrator-svc in one call.
 * With `countInFlight`, the report also carries the requests held per service (for the scaler of
 * deployments) whenever they changed since the last report, falling to zero included, and again
 * every ACTIVITY_REPORT_MS while any is above zero (orchestrator-svc takes counts it has not heard
 * again for a while as zero, so a gateway that restarted with requests held cannot leave them counted).
 * The requests waiting in the fair-share queue per deployment go with them, as load for the scaler.
 * A failed report is merged into the next one.
 */
export class ActivityRecorder {
  private pending = new Map<string, number>();
  private timer: Timer | undefined;
  private sending: Promise<void> | undefined;
  private inFlight: (() => Counts) | undefined;
  private waiting: () => Counts = () => NONE;
  /** The counts orchestrator-svc has (the last report it took). */
  private reported: Counts = NONE;
  private reportedWaiting: Counts = NONE;

  constructor(private readonly send: (report: ActivityReport) => Promise<unknown>, private readonly everyMs = ACTIVITY_REPORT_MS) {}

  /** A request for `serviceId` (its full id) is being passed on now. */
  touch(serviceId: string, at = Date.now()) {
    this.pending.set(serviceId, Math.max(at, this.pending.get(serviceId) ?? 0));
    this.arm();
  }

  /** Where the requests in flight per service (by full id), and those waiting per deployment (by id), are read; call `inFlightChanged` when they change. */
  countInFlight(source: () => Counts, waiting?: () => Counts) {
    this.inFlight = source;
    if (waiting) this.waiting = waiting;
  }

  /** The counts changed: the next report (within ACTIVITY_REPORT_MS) says them. */
  inFlightChanged() {
    this.arm();
  }

  private arm() {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.everyMs).unref();
  }

  /** Sends what was noted since the last report (tests and shutdown call it directly). */
  async flush(): Promise<void> {
    await this.sending;
    const counts = this.inFlight?.();
    const waiting = this.waiting();
    const held = counts !== undefined && (counts.size > 0 || waiting.size > 0);
    const countsChanged = counts !== undefined && (held || !sameCounts(counts, this.reported) || !sameCounts(waiting, this.reportedWaiting));
    if (this.pending.size === 0 && !countsChanged) return;
    const batch = this.pending;
    this.pending = new Map();
    const report: ActivityReport = { services: [...batch].map(([id, at]) => ({ id, lastRequestAt: new Date(at).toISOString() })) };
    if (countsChanged) {
      report.inFlight = [...counts].map(([id, count]) => ({ id, count }));
      if (waiting.size > 0) report.waiting = [...waiting].map(([deployment, count]) => ({ deployment, count }));
    }
    this.sending = this.send(report).then(
      () => {
        if (countsChanged) {
          this.reported = counts;
          this.reportedWaiting = waiting;
        }
        if (held) this.arm();
      },
      () => {
        for (const [id, at] of batch) this.touch(id, at);
        if (countsChanged) this.arm();
      },
    );
    await this.sending;
    this.sending = undefined;
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
