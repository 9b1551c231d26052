import { SERVICE_HEALTH_PATH, SERVICES, VERSION, type AppInfo, type ComponentHealth, type HealthReport, type ServiceName } from "@svc/contracts";
import type { InternalClient, Settings } from "@svc/platform";

export function appInfo(settings: Settings): AppInfo {
  return { name: "svc", version: VERSION, host: settings.host, port: settings.port, homeDir: settings.homeDir, debug: settings.debug };
}

const PROBE_TIMEOUT_MS = 2000;

async function probe(client: InternalClient, name: ServiceName): Promise<ComponentHealth> {
  const started = performance.now();
  try {
    const response = await client.serviceRoute(name, SERVICE_HEALTH_PATH, PROBE_TIMEOUT_MS);
    const latencyMs = performance.now() - started;
    if (response.ok) return { name, state: "up", latencyMs };
    return { name, state: "down", latencyMs, detail: `health check answered ${response.status}` };
  } catch {
    return { name, state: "down", latencyMs: null, detail: "not answering" };
  }
}

/** Asks every internal service for its health, in parallel. */
export async function healthReport(client: InternalClient): Promise<HealthReport> {
  const services = await Promise.all(SERVICES.map(({ name }) => probe(client, name)));
  return { status: services.every((s) => s.state === "up") ? "ok" : "degraded", services };
}
