import { SERVICE_FACTS_PATH, SERVICE_HEALTH_PATH, SERVICES, VERSION, type AppInfo, type ComponentHealth, type HealthReport, type ServiceFacts, type ServiceName } from "@svc/contracts";
import type { InternalClient, Settings } from "@svc/platform";
import { loadImageChoices } from "@svc/platform/config";

const PROBE_TIMEOUT_MS = 2000;

/** What orchestrator-svc says of its engines; nothing known while it does not answer. */
async function orchestratorFacts(client: InternalClient): Promise<ServiceFacts> {
  try {
    const response = await client.serviceRoute("orchestrator-svc", SERVICE_FACTS_PATH, PROBE_TIMEOUT_MS);
    if (response.ok) return (await response.json()) as ServiceFacts;
  } catch {
    // not answering: say nothing
  }
  return { dockerNetwork: null, engines: [] };
}

export async function appInfo(settings: Settings, client: InternalClient): Promise<AppInfo> {
  const { dockerNetwork } = await orchestratorFacts(client);
  return {
    name: "svc",
    version: VERSION,
    host: settings.host,
    port: settings.port,
    homeDir: settings.homeDir,
    debug: settings.debug,
    dockerNetwork,
    images: loadImageChoices(process.env),
  };
}

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
  const [services, facts] = await Promise.all([Promise.all(SERVICES.map(({ name }) => probe(client, name))), orchestratorFacts(client)]);
  return { status: services.every((s) => s.state === "up") ? "ok" : "degraded", services, engines: facts.engines };
}
