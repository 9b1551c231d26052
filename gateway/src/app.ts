import { join } from "node:path";
import { Elysia, type AnyElysia } from "elysia";
import { errorHandler, homeLayout, internalClient, openApiPart } from "@svc/platform";
import type { GatewayEnv } from "./gateway-env";
import { authController } from "./auth";
import { forwardController } from "./forward";
import { proxyController } from "./proxy";
import { ServiceProxy } from "./proxy/service";
import { ActivityRecorder } from "./activity";
import { OnDemandStarts } from "./on-demand/ensure-serving";
import { statusController } from "./status";
import { docsController } from "./docs";
import { pagesController } from "./pages";
import { requestGuard } from "./guard";
import { holdOpen, IDLE_TIMEOUT_SECONDS } from "./guard/hold-open";
import { PROXY_BODY_LIMIT } from "./guard/service";

/**
 * The gateway: the request guard (host, origin, body size) first, then auth, forwarding to the
 * services, and its own routes and the UI. A connection idle for IDLE_TIMEOUT_SECONDS is dropped,
 * except while an authorised request's answer is on its way (see holdOpen).
 */
export function createGateway({ settings, internalSecret, upstreams, authToken }: GatewayEnv) {
  const client = internalClient(upstreams, internalSecret);
  // Idle clocks and on-demand starts: /proxy uses them now; /v1 calls the same touch and ensureServing for the service it picks.
  const activity = new ActivityRecorder((report) => client.services.reportActivity(report));
  const starts = new OnDemandStarts(client.services);
  const proxy = new ServiceProxy(client, authToken, activity, starts);
  const layout = homeLayout(settings.homeDir);
  const app: AnyElysia = new Elysia({ name: "gateway", serve: { idleTimeout: IDLE_TIMEOUT_SECONDS, maxRequestBodySize: PROXY_BODY_LIMIT } })
    .use(errorHandler)
    .use(requestGuard(settings))
    .onAfterHandle(({ set }) => {
      set.headers["x-content-type-options"] = "nosniff";
      set.headers["referrer-policy"] = "same-origin";
      set.headers["x-frame-options"] = "DENY";
    })
    .use(
      authController({
        token: authToken,
        tokenFile: layout.tokenFile,
        revokedSessionsFile: join(layout.dataDir("gateway"), "revoked-sessions"),
        allowedHosts: settings.allowedHosts,
      }),
    )
    // Writes through the UI (a launch may build an image, a refresh scan a cluster) may take long: their body is parsed by now.
    .onBeforeHandle(({ request, server, set }) => {
      if (request.method !== "GET" && request.method !== "HEAD" && new URL(request.url).pathname !== "/login") Object.assign(set.headers, holdOpen(request, server));
    })
    .use(forwardController(upstreams, internalSecret))
    .use(proxyController(proxy))
    .use(statusController(settings, client))
    .use(docsController({ ownPart: () => openApiPart(app, (path) => path.startsWith("/api/")), client, debug: settings.debug }))
    .use(pagesController(settings, client, proxy));
  return app;
}
