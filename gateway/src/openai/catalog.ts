import { SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";

/**
 * How long the list of live services is reused: a burst of requests costs one look-up. (Followed
 * instead, through a long poll of the orchestrator's writes, the list made the 1,000-stream figure's
 * first byte later by ~60–100 ms at p50 on 2 cores: the burst's requests then go out one by one as
 * they arrive, instead of together once the list is read. See docs/benchmarks.md.)
 */
const CATALOG_TTL_MS = 1000;
/**
 * A list this old is still used, but the request that finds it reads it again meanwhile: under a
 * steady load no request waits for the look-up (at 2,000 requests/s, those arriving during each
 * second's look-up, a few ms or more under load, waited: about a percentile). The list used is
 * still never older than CATALOG_TTL_MS, and after a quiet second a request still waits for a new one.
 */
const READ_AHEAD_MS = 750;
/** A list read this recently is fresh enough to confirm a refusal with. */
const FRESH_MS = 100;

/** The live services and their addresses, from orchestrator-svc, refreshed at most once a second (or when told), ahead of time while in use. */
export class ServiceCatalog {
  private cached: { routes: ServiceRoute[]; readAt: number } | undefined;
  private pending: Promise<ServiceRoute[]> | undefined;
  /** Counts invalidations: a read begun before the last one is not kept. */
  private generation = 0;

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
    if (this.cached) {
      const age = Date.now() - this.cached.readAt;
      if (age < CATALOG_TTL_MS) {
        // A failed read ahead leaves the list as it is: the request after it expires meets the failure.
        if (age >= READ_AHEAD_MS) this.readNow().catch(() => {});
        return this.cached.routes;
      }
    }
    return this.readNow();
  }

  /** The live services as read within the last FRESH_MS: a refusal the list of up to a second ago would give (a model not served yet, or still starting) is confirmed on it. */
  async fresh(): Promise<ServiceRoute[]> {
    if (this.cached && this.cached.readAt > Date.now() - FRESH_MS) return this.cached.routes;
    return this.readNow();
  }

  /** Forget the list (a service was stopped, or did not answer): the next request looks again. */
  invalidate(): void {
    this.cached = undefined;
    // A read under way (a read ahead, most often) may have begun before the change: the next request starts its own.
    this.pending = undefined;
    this.generation++;
  }

  private readNow(): Promise<ServiceRoute[]> {
    if (this.pending) return this.pending;
    const generation = this.generation;
    const read = this.load()
      .then((routes) => {
        if (generation === this.generation) this.cached = { routes, readAt: Date.now() };
        return routes;
      })
      .finally(() => {
        if (this.pending === read) this.pending = undefined;
      });
    this.pending = read;
    return read;
  }
}
