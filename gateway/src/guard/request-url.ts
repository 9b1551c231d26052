const parsed = new WeakMap<Request, URL>();

/**
 * The request's URL, parsed once however many steps read it (the guard, auth, the route's own
 * choice): every request to the gateway passes several. Read it; never change it.
 */
export function requestUrl(request: Request): URL {
  let url = parsed.get(request);
  if (!url) parsed.set(request, (url = new URL(request.url)));
  return url;
}
