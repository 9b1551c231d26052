import { Elysia } from "elysia";
import { ownerOf, type ServiceName } from "@svc/contracts";
import { forward } from "./service";
import { requestUrl } from "../guard/request-url";

/** Routes /api/profiles…, /api/models… and /api/services… to the service that owns them; `onForward` is told when each is sent and again when it has its answer. */
export function forwardController(upstreams: Record<ServiceName, string>, internalSecret: string, onForward?: (request: Request) => void) {
  return new Elysia({ name: "gateway/forward" }).onRequest(({ request, server }) => {
    const service = ownerOf(requestUrl(request).pathname);
    if (!service) return;
    onForward?.(request);
    const answer = forward(request, service, upstreams[service], internalSecret, server);
    return onForward ? answer.finally(() => onForward(request)) : answer;
  });
}
