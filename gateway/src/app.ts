import { Elysia, type AnyElysia } from "elysia";
import { errorHandler, homeLayout, internalClient, openApiPart } from "@svc/platform";
import type { GatewayEnv } from "./gateway-env";
import { authController } from "./auth";
import { forwardController } from "./forward";
import { proxyController } from "./proxy";
import { ServiceProxy } from "./proxy/service";
import { statusController } from "./status";
import { docsController } from "./docs";
import { pagesController } from "./pages";

/** The gateway: auth first, then forwarding to the services, then its own routes and the UI. */
export function createGateway({ settings, internalSecret, upstreams, authToken }: GatewayEnv) {
  const client = internalClient(upstreams, internalSecret);
  const proxy = new ServiceProxy(client, authToken);
  const app: AnyElysia = new Elysia({ name: "gateway", serve: { idleTimeout: 0 } })
    .use(errorHandler)
    .onAfterHandle(({ set }) => {
      set.headers["x-content-type-options"] = "nosniff";
      set.headers["referrer-policy"] = "same-origin";
      set.headers["x-frame-options"] = "DENY";
    })
    .use(authController({ token: authToken, tokenFile: homeLayout(settings.homeDir).tokenFile }))
    .use(forwardController(upstreams, internalSecret))
    .use(proxyController(proxy))
    .use(statusController(settings, client))
    .use(docsController({ ownPart: () => openApiPart(app, (path) => path.startsWith("/api/")), client, debug: settings.debug }))
    .use(pagesController(settings, client, proxy));
  return app;
}
