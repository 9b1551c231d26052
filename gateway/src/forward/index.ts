import { Elysia } from "elysia";
import { ownerOf, type ServiceName } from "@svc/contracts";
import { forward } from "./service";

/** Routes /api/profiles…, /api/models… and /api/services… to the service that owns them. */
export function forwardController(upstreams: Record<ServiceName, string>, internalSecret: string) {
  return new Elysia({ name: "gateway/forward" }).onRequest(({ request, server }) => {
    const service = ownerOf(new URL(request.url).pathname);
    if (service) return forward(request, service, upstreams[service], internalSecret, server);
  });
}
