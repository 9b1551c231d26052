import { proxyError } from "../proxy/proxy-error";
import type { TimeoutControl } from "./hold-open";
import { requestUrl } from "./request-url";

/** A check the app makes of every request before its routes (the guard, auth): the answer that refuses it, or undefined. */
export type RequestCheck = (request: Request) => Response | undefined;

/** What answers a request once its checks passed. */
export type RouteHandler = (request: Request, server: TimeoutControl) => Promise<Response>;

/**
 * A route of Bun.serve's own, in front of the Elysia app, for paths whose clients speak OpenAI's
 * API (/proxy/…, /v1/…): the same checks the app makes first (`checks`, in its order), then
 * `handle`, without Elysia's context and hook chain for each request. A path `serves` declines
 * once parsed (e.g. `/proxy/../api`, or /v1/files, another controller's) goes to `app`.
 */
export function serverRoute(serves: (path: string) => boolean, handle: RouteHandler, checks: RequestCheck[], app: () => { fetch: (request: Request) => Response | Promise<Response> }) {
  return (request: Request, server: TimeoutControl): Response | Promise<Response> => {
    if (!serves(requestUrl(request).pathname)) return app().fetch(request);
    try {
      for (const check of checks) {
        const refusal = check(request);
        if (refusal) return refusal;
      }
      return handle(request, server).catch((error: unknown) => failed(request, error));
    } catch (error) {
      return failed(request, error);
    }
  };
}

/** What the app's error handler does for an unexpected failure, in the OpenAI error shape. */
function failed(request: Request, error: unknown): Response {
  console.error(`[error] ${request.method} ${requestUrl(request).pathname}:`, error);
  return proxyError(500, "internal_error", "Something unexpected failed inside svc; see the logs in $SVC_HOME_DIR/logs.");
}
