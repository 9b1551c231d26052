export const PROXY_PREFIX = "/proxy/";

/** `/proxy/<service>/<rest>` → the service and the rest of the path (with the query). */
export function splitProxyPath(url: URL): { ref: string; rest: string } | undefined {
  const tail = url.pathname.slice(PROXY_PREFIX.length);
  const slash = tail.indexOf("/");
  const ref = decodeURIComponent(slash < 0 ? tail : tail.slice(0, slash));
  if (!ref) return undefined;
  return { ref, rest: `${slash < 0 ? "/" : tail.slice(slash)}${url.search}` };
}
