import { SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";

/** How long the list of live services is reused: a burst of requests costs one look-up. */
const CATALOG_TTL_MS = 1000;

/** The live services and their addresses, from orchestrator-svc, refreshed at most once a second (or when told). */
export class ServiceCatalog {
  private cached: { routes: ServiceRoute[]; until: number } | undefined;
  private pending: Promise<ServiceRoute[]> | undefined;

  constructor(private readonly load: () => Promise<ServiceRoute[]>) {}

  /** svc's services from orchestrator-svc, then `more` (the outside endpoints' models). */
  static fromClient(client: InternalClient, more: () => ServiceRoute[] = () => []): ServiceCatalog {
    return new ServiceCatalog(async () => {
      const response = await client.serviceRoute("orchestrator-svc", SERVICE_ROUTES_PATH, 5000);
      if (!response.ok) throw new Error(`orchestrator-svc answered ${response.status} for its service routes`);
      return [...((await response.json()) as ServiceRoute[]), ...more()];
    });
  }

  /** The live services; throws when orchestrator-svc does not answer. */
  async routes(): Promise<ServiceRoute[]> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.routes;
    this.pending ??= this.load()
      .then((routes) => {
        this.cached = { routes, until: Date.now() + CATALOG_TTL_MS };
        return routes;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** Forget the list (a service was stopped, or did not answer): the next request looks again. */
  invalidate(): void {
    this.cached = undefined;
  }
}
