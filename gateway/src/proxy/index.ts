import { Elysia } from "elysia";
import { PROXY_PREFIX } from "./paths";
import type { ServiceProxy } from "./service";
import { requestUrl } from "../guard/request-url";

/** /proxy/<service id>/…: forwards to the service, streaming, with the caller's Authorization for its API key. */
export function proxyController(proxy: ServiceProxy) {
  return new Elysia({ name: "gateway/proxy" }).onRequest(({ request, server }) => {
    if (requestUrl(request).pathname.startsWith(PROXY_PREFIX)) return proxy.handle(request, server);
  });
}
