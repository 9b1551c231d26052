import { SvcClient } from "@svc/client";
import { internalFetch, type Upstreams } from "@svc/platform";

/**
 * The typed API client the pages use: the same SvcClient as the CLI, whose `fetch` sends each
 * /api/… request in-process to the service that owns it (with the internal secret), so the UI
 * goes through the REST API and its validation like every other caller.
 */
export function pagesClient(upstreams: Upstreams, internalSecret: string): SvcClient {
  return new SvcClient({ baseUrl: "http://svc.internal", fetch: internalFetch(upstreams, internalSecret) });
}
