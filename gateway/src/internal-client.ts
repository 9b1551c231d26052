import { SvcClient } from "@svc/client";
import { internalFetch, type Upstreams } from "@svc/platform";

/**
 * The typed API client the gateway's own parts (UI pages, the service proxy) use: the same
 * SvcClient as the CLI, whose `fetch` sends each /api/… request in-process to the service that
 * owns it (with the internal secret), so they go through the REST API and its validation like
 * every other caller.
 */
export function internalClient(upstreams: Upstreams, internalSecret: string): SvcClient {
  return new SvcClient({ baseUrl: "http://svc.internal", fetch: internalFetch(upstreams, internalSecret) });
}
