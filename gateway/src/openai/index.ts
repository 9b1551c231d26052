import { Elysia } from "elysia";
import { isV1Path } from "./paths";
import type { OpenAiRouter } from "./service";
import { requestUrl } from "../guard/request-url";

/** /v1/…: OpenAI's API for every model svc serves, routed by the request's `model`. */
export function openAiController(router: OpenAiRouter) {
  return new Elysia({ name: "gateway/openai" }).onRequest(({ request, server }) => {
    if (isV1Path(requestUrl(request).pathname)) return router.handle(request, server);
  });
}
