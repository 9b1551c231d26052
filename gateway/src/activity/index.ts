import type { ActivityReport } from "@svc/contracts";

/** How often the gateway tells orchestrator-svc which services it passed requests to. */
export const ACTIVITY_REPORT_MS = 2000;

/**
 * The idle clocks of --idle-stop, as the gateway sees them: every request it passes to a service
 * (through /proxy/<id>/…, or /v1 for a model) calls `touch(serviceId)`, which only notes the time
 * here; every ACTIVITY_REPORT_MS the latest time per service goes to orchestrator-svc in one call.
 * A failed report is merged into the next one.
 */
export class ActivityRecorder {
  private pending = new Map<string, number>();
  private timer: Timer | undefined;
  private sending: Promise<void> | undefined;

  constructor(private readonly send: (report: ActivityReport) => Promise<unknown>, private readonly everyMs = ACTIVITY_REPORT_MS) {}

  /** A request for `serviceId` (its full id) is being passed on now. */
  touch(serviceId: string, at = Date.now()) {
    this.pending.set(serviceId, Math.max(at, this.pending.get(serviceId) ?? 0));
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.everyMs).unref();
  }

  /** Sends what was noted since the last report (tests and shutdown call it directly). */
  async flush(): Promise<void> {
    await this.sending;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const report: ActivityReport = { services: [...batch].map(([id, at]) => ({ id, lastRequestAt: new Date(at).toISOString() })) };
    this.sending = this.send(report).then(
      () => undefined,
      () => {
        for (const [id, at] of batch) this.touch(id, at);
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
