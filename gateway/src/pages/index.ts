import { Elysia } from "elysia";
import type { InternalClient, Settings } from "@svc/platform";
import { ASSET_FILES, healthTable, overviewPage } from "@svc/ui";
import { appInfo, healthReport } from "../status/service";
import type { ServiceProxy } from "../proxy/service";
import { profilePages } from "./profiles";
import { modelPages } from "./models";
import { servicePages } from "./services";
import { launchPages } from "./launch";
import { serviceDetailPages } from "./service-details";
import { deploymentPages } from "./deployments";
import { playgroundPages } from "./playground";
import { batchPages } from "./batches";
import { keyAndUsagePages } from "./keys";
import type { KeyRing } from "../keys/service";
import type { UsageStore } from "../usage/store";
import type { EndpointRegistry } from "../endpoints/service";
import type { QueueReport } from "@svc/contracts";

const htmlHeaders = { "content-type": "text/html; charset=utf-8" };

/** The web UI's pages and fragments (rendered by ui/) and its static files. */
export function pagesController(settings: Settings, client: InternalClient, proxy: ServiceProxy, keys: KeyRing, usage: UsageStore, endpoints?: EndpointRegistry, queues?: (model: string) => QueueReport) {
  const loggedIn = !settings.debug;
  return new Elysia({ name: "gateway/pages" })
    .use(profilePages(client, loggedIn))
    .use(modelPages(client, loggedIn))
    .use(servicePages(client, loggedIn))
    .use(launchPages(client, loggedIn))
    .use(serviceDetailPages(client, loggedIn, queues))
    .use(deploymentPages(client, loggedIn))
    .use(playgroundPages(client, loggedIn, proxy))
    .use(batchPages(client, loggedIn))
    .use(keyAndUsagePages(keys, usage, client, loggedIn, endpoints))
    .get(
      "/",
      async () => {
        const [info, health, services, models] = await Promise.all([
          appInfo(settings, client),
          healthReport(client),
          client.services.list({ all: true }).catch(() => undefined),
          client.models.list().catch(() => undefined),
        ]);
        return new Response(overviewPage(info, health, loggedIn, { services, models }), { headers: htmlHeaders });
      },
      { detail: { hide: true } },
    )
    .get(
      "/fragments/health",
      async () => new Response(healthTable(await healthReport(client)).value, { headers: htmlHeaders }),
      { detail: { hide: true } },
    )
    .get(
      "/assets/:name",
      ({ params, status }) => {
        const file = ASSET_FILES[params.name];
        if (!file) return status(404, { error: "not_found", message: `No UI asset named ${params.name}.` });
        return new Response(Bun.file(file), { headers: { "cache-control": "public, max-age=3600" } });
      },
      { detail: { hide: true } },
    );
}
