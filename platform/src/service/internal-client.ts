import { SvcClient } from "@svc/client";
import { INTERNAL_SECRET_HEADER, ownerOf, SvcUnreachableError, type ServiceName } from "@svc/contracts";
import { upstreamOf, type Upstreams } from "./upstreams";

const INTERNAL_BASE = "http://svc.internal";

/**
 * The typed API client one part of the application uses to call another (a service asking
 * profile-svc for a profile, the gateway's pages and status): the same SvcClient the CLI uses, whose
 * requests go straight to the internal service owning each /api/… path, with the internal secret,
 * so they pass that service's validation like every other caller's. A service that does not answer
 * is a SvcUnreachableError naming it (the service shell answers it as 503 service_unavailable).
 */
export class InternalClient extends SvcClient {
  constructor(
    private readonly upstreams: Upstreams,
    private readonly internalSecret: string,
  ) {
    super({ baseUrl: INTERNAL_BASE, fetch: ((input: RequestInfo | URL, init?: RequestInit) => this.toOwner(new Request(input, init))) as typeof fetch });
  }

  private async toOwner(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const owner = ownerOf(url.pathname);
    if (!owner) throw new TypeError(`No internal service owns ${url.pathname}.`);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return this.toService(owner, `${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal });
  }

  /** A route of one service itself (its health check, its part of the OpenAPI document), answered as it is. */
  serviceRoute(name: ServiceName, path: string, timeoutMs: number): Promise<Response> {
    return this.toService(name, path, { signal: AbortSignal.timeout(timeoutMs) });
  }

  private async toService(name: ServiceName, path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set(INTERNAL_SECRET_HEADER, this.internalSecret);
    const base = await upstreamOf(this.upstreams, name, init.signal);
    try {
      if (!base) throw new Error(`svc start has not told where ${name} listens`);
      return await fetch(`${base}${path}`, { ...init, headers });
    } catch (error) {
      throw new SvcUnreachableError(base ?? name, error, name);
    }
  }
}

/** The one way a part of the application gets a client for the others. */
export const internalClient = (upstreams: Upstreams, internalSecret: string) => new InternalClient(upstreams, internalSecret);
