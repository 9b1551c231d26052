import type { Engine } from "../engines/engine";

const FIRST_RETRY_MS = 500;
/**
 * No longer than the loop's slow tick: asking an engine that is down costs nothing there (Docker's
 * socket refuses at once; an SSH connection being re-opened fails the call without a round trip, as
 * it spaces its own attempts, see ssh's reconnect-schedule.ts), and once it is back its services'
 * statuses are current again within 2 s.
 */
const MAX_RETRY_MS = 2_000;
/** The same failure is logged again only after this long (e.g. Docker stays down). */
const REPORT_EVERY_MS = 60_000;

interface Failing {
  failures: number;
  retryAt: number;
  message: string;
  reportedAt: number;
}

/**
 * Per-engine retry: an engine whose reconcile failed is skipped until its wait is over (0.5 s,
 * doubling up to 2 s; the SSH connection spaces its own reconnects), so an engine that is down is
 * neither hammered nor allowed to hold up the others; its first success clears it.
 */
export class EngineBackoff {
  private readonly failing = new Map<Engine, Failing>();

  constructor(private readonly now: () => number) {}

  due(engine: Engine): boolean {
    const state = this.failing.get(engine);
    return !state || this.now() >= state.retryAt;
  }

  succeeded(engine: Engine) {
    this.failing.delete(engine);
  }

  /** Records a failure; returns what to log, or undefined when this failure was logged recently. */
  failed(engine: Engine, message: string): { message: string; retryInMs: number } | undefined {
    const now = this.now();
    const previous = this.failing.get(engine);
    const failures = (previous?.failures ?? 0) + 1;
    const retryInMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    const repeat = previous?.message === message && now - previous.reportedAt < REPORT_EVERY_MS;
    this.failing.set(engine, { failures, retryAt: now + retryInMs, message, reportedAt: repeat ? previous!.reportedAt : now });
    return repeat ? undefined : { message, retryInMs };
  }
}
