import { isBusy, isDormant, requestsWait, type ServiceRecord } from "@svc/contracts";
import type { ServicesApi } from "@svc/client";

/** How often the state of a starting service is read while requests wait for it. */
const POLL_MS = 500;
/** Retry-After of a 503 after --start-timeout: the queue may still start the service. */
export const START_RETRY_AFTER_SECONDS = 30;

/** Why a request could not be served after waiting: the gateway answers it as a 503 with Retry-After. */
export class NotServing extends Error {
  override name = "NotServing";
  constructor(
    message: string,
    readonly code: "start_timeout" | "service_not_ready",
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export interface EnsureOptions {
  /** The caller went away: stop waiting for it (the start goes on for the others). */
  signal?: AbortSignal;
  /** Called once when the request has to wait (to start keep-alive comments on a stream). */
  onWait?: (record: ServiceRecord) => void;
}

const firstLine = (text: string | null) => text?.split("\n")[0] ?? "";
const waits = (record: ServiceRecord) => requestsWait(record.policies);
const startable = (record: ServiceRecord) => isDormant(record.status);
const starting = (record: ServiceRecord) => isBusy(record.status);

/**
 * Start on demand (--on-demand): `ensureServing(ref)` gives the record of a HEALTHY service. A
 * STOPPED (or timed-out) on-demand service is started again, same id and spec, through the
 * orchestrator's restart; a service on its way up (an on-demand start, or a renewal whose successor
 * is queued) is waited for, up to its --start-timeout, after which NotServing carries the
 * scheduler's reason. Requests for the same service share one start and one wait (single-flight),
 * so ten requests arriving together start it once. /proxy/<id>/… calls it; so can /v1 with the
 * service it chose for a model.
 */
export class OnDemandStarts {
  private readonly inFlight = new Map<string, Promise<ServiceRecord>>();

  constructor(
    private readonly services: Pick<ServicesApi, "get" | "restart">,
    private readonly pollMs = POLL_MS,
  ) {}

  /** Whether a request for `record` should wait rather than be refused now. */
  static shouldWait(record: ServiceRecord): boolean {
    return waits(record) && ((record.policies.onDemand && startable(record)) || starting(record));
  }

  async ensureServing(service: string | ServiceRecord, options: EnsureOptions = {}): Promise<ServiceRecord> {
    const record = typeof service === "string" ? await this.services.get(service) : service;
    if (record.status === "HEALTHY" && record.url) return record;
    if (!OnDemandStarts.shouldWait(record)) {
      throw new NotServing(`Service ${record.id} is ${record.status}${record.reason ? ` (${firstLine(record.reason)})` : ""}; it answers once it is HEALTHY.`, "service_not_ready", 2);
    }
    options.onWait?.(record);
    let shared = this.inFlight.get(record.id);
    if (!shared) {
      shared = this.startAndWait(record).finally(() => this.inFlight.delete(record.id));
      this.inFlight.set(record.id, shared);
    }
    if (!options.signal) return shared;
    const signal = options.signal;
    return Promise.race([
      shared,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  }

  private async startAndWait(first: ServiceRecord): Promise<ServiceRecord> {
    const deadline = Date.now() + first.policies.startTimeoutSeconds * 1000;
    let record = first;
    let started = false;
    for (;;) {
      if (record.status === "HEALTHY" && record.url) return record;
      if (startable(record) && record.policies.onDemand && !started) {
        record = await this.services.restart(record.id, { onDemand: true });
        started = true;
        continue;
      }
      if (!starting(record)) {
        throw new NotServing(`Service ${record.id} did not start: it is ${record.status}${record.reason ? ` (${firstLine(record.reason)})` : ""}.`, "service_not_ready", START_RETRY_AFTER_SECONDS);
      }
      if (Date.now() >= deadline) {
        const why = record.reason ? firstLine(record.reason) : "no reason given by the engine";
        throw new NotServing(
          `Service ${record.id} did not become HEALTHY within its start timeout (${record.policies.startTimeout}); it is ${record.status}: ${why}. It goes on starting: try again later.`,
          "start_timeout",
          START_RETRY_AFTER_SECONDS,
        );
      }
      await Bun.sleep(Math.min(this.pollMs, Math.max(0, deadline - Date.now())));
      record = await this.services.get(record.id);
    }
  }
}
