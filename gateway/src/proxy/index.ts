import { Elysia } from "elysia";
import { PROXY_PREFIX } from "./paths";
import { proxyError } from "./proxy-error";
import type { ServiceProxy } from "./service";
import type { TimeoutControl } from "../guard/hold-open";
import { requestUrl } from "../guard/request-url";

/** /proxy/<service id>/…: forwards to the service, streaming, with the caller's Authorization for its API key. */
export function proxyController(proxy: ServiceProxy) {
  return new Elysia({ name: "gateway/proxy" }).onRequest(({ request, server }) => {
    if (requestUrl(request).pathname.startsWith(PROXY_PREFIX)) return proxy.handle(request, server);
  });
}

/** A check the app makes of every request before its routes (the guard, auth): the answer that refuses it, or undefined. */
export type RequestCheck = (request: Request) => Response | undefined;

/**
 * /proxy/<service id>/… as a route of Bun.serve's own, in front of the Elysia app: the same checks
 * the app makes first (`checks`, in its order), then the same proxy, but without Elysia's context and
 * hook chain for each of a proxy's many small requests (~1 µs of the gateway's ~30 µs of CPU per
 * request). A path that is not a /proxy/ one once parsed (e.g. `/proxy/../api`) goes to `app`.
 */
export function proxyRoute(proxy: ServiceProxy, checks: RequestCheck[], app: () => { fetch: (request: Request) => Response | Promise<Response> }) {
  return (request: Request, server: TimeoutControl): Response | Promise<Response> => {
    if (!requestUrl(request).pathname.startsWith(PROXY_PREFIX)) return app().fetch(request);
    try {
      for (const check of checks) {
        const refusal = check(request);
        if (refusal) return refusal;
      }
      return proxy.handle(request, server).catch((error: unknown) => failed(request, error));
    } catch (error) {
      return failed(request, error);
    }
  };
}

/** What the app's error handler does for an unexpected failure, in the OpenAI error shape of /proxy. */
function failed(request: Request, error: unknown): Response {
  console.error(`[error] ${request.method} ${requestUrl(request).pathname}:`, error);
  return proxyError(500, "internal_error", "Something unexpected failed inside svc; see the logs in $SVC_HOME_DIR/logs.");
}
