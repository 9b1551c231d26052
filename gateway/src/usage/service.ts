import type { SvcClient } from "@svc/client";
import { isLive, type ApiKey, type ServiceTime, type UsageQuery, type UsageReport } from "@svc/contracts";
import { durationMs } from "../keys/expiry";
import { keyAllowances, spendWindows } from "./allowances";
import { hourlyUsage } from "./hourly";
import type { UsageStore } from "./store";

export const DEFAULT_SINCE = "7d";

/** What a report is made of: the usage rows, the keys (their limits) and orchestrator-svc (the services' running time). */
export interface UsageSources {
  store: UsageStore;
  keys: { list(now?: Date): ApiKey[] };
  client: SvcClient;
}

/**
 * Usage per key, model or service over a period, per day, each key against its limits, per hour,
 * and the services' running time. With `servicesOptional`, a report without the services' running
 * time when orchestrator-svc does not answer (the UI's page), instead of the error.
 */
export async function usageReport({ store, keys, client }: UsageSources, query: UsageQuery, now = new Date(), servicesOptional = false): Promise<UsageReport> {
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
    at: now.toISOString(),
    keys: keyAllowances(store.windowSums(spendWindows(now, since)), keys.list(now)),
    hourly: hourlyUsage(store, now, query.hours ?? "day"),
  };
}
