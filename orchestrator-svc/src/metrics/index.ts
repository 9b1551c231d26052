import { Elysia } from "elysia";
import { Gauge, Histogram, Registry } from "@svc/platform/metrics";
import { SERVICE_METRICS_PATH } from "@svc/contracts";
import { sshRoundTripsSoFar } from "@svc/ssh";
import type { ServiceStore } from "../db/service-store";

/**
 * The orchestrator's Prometheus metrics, which the gateway's /metrics appends to its own: reconcile
 * ticks (duration, SSH round trips) and the services per status and per profile.
 */
export class OrchestratorMetrics {
  readonly registry = new Registry();
  private readonly tickSeconds = new Histogram({
    name: "svc_reconcile_tick_seconds",
    help: "Duration of one reconcile tick over every live service.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly tickRoundTrips = new Histogram({
    name: "svc_reconcile_ssh_round_trips",
    help: "SSH commands sent during one reconcile tick.",
    buckets: [0, 1, 2, 4, 8, 16, 32, 64],
    registers: [this.registry],
  });
  private roundTripsAtStart = sshRoundTripsSoFar();

  constructor(store: ServiceStore) {
    new Gauge({
      name: "svc_services",
      help: "Services recorded, by status (removed ones are not counted).",
      labelNames: ["status"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const row of store.list({ all: true })) this.inc({ status: row.status });
      },
    });
    new Gauge({
      name: "svc_services_live",
      help: "Live services (not stopped, failed or timed out), by profile.",
      labelNames: ["profile"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const row of store.live()) this.inc({ profile: row.profile });
      },
    });
  }

  tickStarted(): void {
    this.roundTripsAtStart = sshRoundTripsSoFar();
  }

  /** After a tick: its duration, and the SSH commands sent while it ran. */
  tick(seconds: number): void {
    this.tickSeconds.observe(seconds);
    this.tickRoundTrips.observe(sshRoundTripsSoFar() - this.roundTripsAtStart);
  }
}

/** The internal metrics route (behind the internal secret, not in the API document). */
export function metricsController(metrics: OrchestratorMetrics) {
  return new Elysia({ name: "orchestrator/metrics" }).get(
    SERVICE_METRICS_PATH,
    async () => new Response(await metrics.registry.metrics(), { headers: { "content-type": metrics.registry.contentType } }),
    { detail: { hide: true } },
  );
}
