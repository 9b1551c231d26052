let lastRequest: Request | undefined;
let lastUrl: URL | undefined;

/**
 * The request's URL, parsed once for the steps that read it one after the other (the guard, auth,
 * the route's own choice): every request to the gateway passes several. The last request's URL is
 * kept (a WeakMap entry per request cost more than the parse, ~0.15 µs); a step reading an earlier
 * request's parses it again. Read it; never change it.
 */
export function requestUrl(request: Request): URL {
  if (request !== lastRequest) {
    lastUrl = new URL(request.url);
    lastRequest = request;
  }
  return lastUrl!;
}
