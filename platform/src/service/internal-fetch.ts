import { INTERNAL_SECRET_HEADER, ownerOf } from "@svc/contracts";
import type { Upstreams } from "./upstreams";

/**
 * A `fetch` that sends each /api/… request straight to the internal service owning its path,
 * with the internal secret. Give it to `new SvcClient({ baseUrl: "http://svc.internal", fetch })`
 * for typed calls from one service to another (or from the gateway's own pages).
 */
export function internalFetch(upstreams: Upstreams, internalSecret: string): typeof fetch {
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const owner = ownerOf(url.pathname);
    if (!owner) throw new TypeError(`No internal service owns ${url.pathname}.`);
    const headers = new Headers(request.headers);
    headers.set(INTERNAL_SECRET_HEADER, internalSecret);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return fetch(`${upstreams[owner]}${url.pathname}${url.search}`, { method: request.method, headers, body, signal: request.signal });
  };
  return send as typeof fetch;
}
