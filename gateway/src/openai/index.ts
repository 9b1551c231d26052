import { Elysia } from "elysia";
import { isV1Path } from "./paths";
import type { OpenAiRouter } from "./service";
import { requestUrl } from "../guard/request-url";
import { serverRoute, type RequestCheck } from "../guard/server-route";
import { isBatchApiPath } from "../batch-api/routes";

/** /v1/…: OpenAI's API for every model svc serves, routed by the request's `model`. */
export function openAiController(router: OpenAiRouter) {
  return new Elysia({ name: "gateway/openai" }).onRequest(({ request, server }) => {
    if (isV1Path(requestUrl(request).pathname)) return router.handle(request, server);
  });
}

/**
 * /v1/… as a route of Bun.serve's own, in front of the Elysia app (serverRoute), but for the Files
 * and Batch API's paths (another controller's): each of many open streams skips Elysia's context
 * and hook chain.
 */
export function openAiRoute(router: OpenAiRouter, checks: RequestCheck[], app: () => { fetch: (request: Request) => Response | Promise<Response> }) {
  return serverRoute((path) => isV1Path(path) && !isBatchApiPath(path), (request, server) => router.handle(request, server), checks, app);
}
