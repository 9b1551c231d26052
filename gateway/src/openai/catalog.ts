import { SERVICE_ROUTES_PATH, type ServiceRoute } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";

/** How long the list is reused where it is not followed (no feed, or the feed is down): a burst of requests costs one look-up. */
const CATALOG_TTL_MS = 1000;
/** How long one wait for a change lasts (inside ROUTES_MAX_WAIT_MS). */
const FOLLOW_WAIT_MS = 25_000;
/** The wait before following again after the feed failed. */
const FOLLOW_RETRY_MS = 1000;
/** A list read this recently is fresh enough to confirm a refusal with. */
const FRESH_MS = 100;

/** The routes as orchestrator-svc gave them, with its tag for that list (null when it gives none). */
export interface TaggedRoutes {
  routes: ServiceRoute[];
  etag: string | null;
}

/** Where the routes come from, when they can be followed. */
export interface RoutesFeed {
  /** The routes now. */
  read(): Promise<TaggedRoutes>;
  /** The routes once they differ from those tagged `etag`; null when they did not within `waitMs`. */
  changed(etag: string, waitMs: number, signal: AbortSignal): Promise<TaggedRoutes | null>;
}

/**
 * The live services and their addresses, from orchestrator-svc, then `more` (the outside
 * endpoints' models). With a feed (the running app) the copy here follows the orchestrator's
 * changes as they are written, through one long poll: no request waits for a look-up while that
 * works. Without a feed, or while it is down, the list is read again at most once a second. After
 * `invalidate` (a service was stopped, or did not answer) the next request reads it anew either way.
 */
export class ServiceCatalog {
  private cached: { routes: ServiceRoute[]; etag: string | null; until: number; readAt: number } | undefined;
  private pending: Promise<ServiceRoute[]> | undefined;
  private following = false;
  private followAgainAt = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly source: (() => Promise<ServiceRoute[]>) | RoutesFeed,
    private readonly more: () => ServiceRoute[] = () => [],
  ) {}

  static fromClient(client: InternalClient, more: () => ServiceRoute[] = () => []): ServiceCatalog {
    const ask = async (query: string, timeoutMs: number, options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<TaggedRoutes | null> => {
      const response = await client.serviceRoute("orchestrator-svc", `${SERVICE_ROUTES_PATH}${query}`, timeoutMs, options);
      if (response.status === 304) return null;
      if (!response.ok) throw new Error(`orchestrator-svc answered ${response.status} for its service routes`);
      return { routes: (await response.json()) as ServiceRoute[], etag: response.headers.get("etag") };
    };
    return new ServiceCatalog(
      {
        read: async () => (await ask("", 5000))!,
        changed: (etag, waitMs, signal) => ask(`?wait_ms=${waitMs}`, waitMs + 5000, { headers: { "if-none-match": etag }, signal }),
      },
      more,
    );
  }

  /** The live services; throws when orchestrator-svc does not answer. */
  async routes(): Promise<ServiceRoute[]> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.routes;
    return this.readNow();
  }

  /** The live services as read within the last FRESH_MS (to confirm a refusal the list may be a moment behind on). */
  async fresh(): Promise<ServiceRoute[]> {
    if (this.cached && this.cached.readAt > Date.now() - FRESH_MS) return this.cached.routes;
    return this.readNow();
  }

  /** Forget the list (a service was stopped, or did not answer): the next request looks again. */
  invalidate(): void {
    this.cached = undefined;
  }

  /** Stops following the orchestrator's changes (the gateway stops). */
  stop(): void {
    this.stopping.abort();
  }

  private readNow(): Promise<ServiceRoute[]> {
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async read(): Promise<ServiceRoute[]> {
    const source = this.source;
    const tagged = typeof source === "function" ? { routes: await source(), etag: null } : await source.read();
    const routes = this.keep(tagged);
    if (typeof source !== "function" && tagged.etag !== null && !this.following && Date.now() >= this.followAgainAt) void this.follow(source);
    return routes;
  }

  private keep(tagged: TaggedRoutes): ServiceRoute[] {
    const now = Date.now();
    const routes = [...tagged.routes, ...this.more()];
    this.cached = { routes, etag: tagged.etag, until: this.following ? Number.POSITIVE_INFINITY : now + CATALOG_TTL_MS, readAt: now };
    return routes;
  }

  /** While the feed answers, the copy is current: each change comes as the answer of the wait before. */
  private async follow(feed: RoutesFeed): Promise<void> {
    this.following = true;
    try {
      while (!this.stopping.signal.aborted) {
        if (!this.cached?.etag) {
          await this.readNow();
          continue;
        }
        const asked = this.cached.etag;
        this.cached.until = Number.POSITIVE_INFINITY;
        const changed = await feed.changed(asked, FOLLOW_WAIT_MS, this.stopping.signal);
        if (changed === null) continue;
        // An orchestrator that does not wait gives the same list again: read it once a second instead.
        if (changed.etag === null || changed.etag === asked) break;
        this.keep(changed);
      }
    } catch {
      // The feed is down: the list is read as without one until following works again.
    } finally {
      this.following = false;
      this.followAgainAt = Date.now() + FOLLOW_RETRY_MS;
      if (this.cached) this.cached.until = Math.min(this.cached.until, Date.now());
    }
  }
}
