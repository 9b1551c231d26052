import type { SvcClient } from "@svc/client";
import { isLive, type ServiceTime, type UsageQuery, type UsageReport } from "@svc/contracts";
import { durationMs } from "../keys/expiry";
import type { UsageStore } from "./store";

export const DEFAULT_SINCE = "7d";

/** Usage per key, model or service over a period, per day, and the services' running time. */
/** With `servicesOptional`, a report without the services' running time when orchestrator-svc does not answer (the UI's page), instead of the error. */
export async function usageReport(store: UsageStore, client: SvcClient, query: UsageQuery, now = new Date(), servicesOptional = false): Promise<UsageReport> {
  // A period longer than there have been dates reaches back to 1970.
  const since = new Date(Math.max(0, now.getTime() - durationMs(query.since ?? DEFAULT_SINCE)!));
  const by = query.by ?? "key";
  const records = await client.services.list({ all: true }).catch((error) => {
    if (servicesOptional) return [];
    throw error;
  });
  const services: ServiceTime[] = records
    .filter((service) => service.status !== "SUBMITTED" && (service.updatedAt >= since.toISOString() || isLive(service.status)))
    .map((service) => ({
      id: service.id,
      name: service.name,
      model: service.model,
      profile: service.profile,
      engine: service.engine,
      status: service.status,
      runningSeconds: service.runningSeconds ?? 0,
      gpuHours: service.gpuHours ?? null,
    }));
  return {
    since: since.toISOString(),
    by,
    retentionDays: store.retentionDays,
    totals: store.totals(since),
    groups: store.groups(since, by),
    days: store.days(since),
    services,
  };
}
