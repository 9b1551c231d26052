import { SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";

/** How long the list of live services is reused: a burst of requests costs one look-up. */
const CATALOG_TTL_MS = 1000;
/**
 * For this long after the list was last asked for, it is read again as it expires, in the
 * background: a burst of requests after a few quiet seconds finds a list at most CATALOG_TTL_MS
 * old instead of all waiting for one look-up (which, under that burst, took 10–60 ms).
 */
const KEEP_FRESH_MS = 60_000;

/** The live services and their addresses, from orchestrator-svc, refreshed at most once a second (or when told). */
export class ServiceCatalog {
  private cached: { routes: ServiceRoute[]; until: number } | undefined;
  private pending: Promise<ServiceRoute[]> | undefined;
  private askedAt = 0;
  private refresh: Timer | undefined;

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
    this.askedAt = Date.now();
    if (this.cached && this.cached.until > this.askedAt) return this.cached.routes;
    return this.reload();
  }

  private reload(): Promise<ServiceRoute[]> {
    this.pending ??= this.load()
      .then((routes) => {
        this.cached = { routes, until: Date.now() + CATALOG_TTL_MS };
        this.keepFresh();
        return routes;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** While the list was asked for within KEEP_FRESH_MS, read it again when it expires. */
  private keepFresh(): void {
    clearTimeout(this.refresh);
    if (Date.now() - this.askedAt > KEEP_FRESH_MS) return;
    this.refresh = setTimeout(() => void this.reload().catch(() => undefined), CATALOG_TTL_MS).unref();
  }

  /** Forget the list (a service was stopped, or did not answer): the next request looks again. */
  invalidate(): void {
    this.cached = undefined;
  }

  /** Stops reading the list in the background. */
  stop(): void {
    clearTimeout(this.refresh);
    this.askedAt = 0;
  }
}
