import { join } from "node:path";
import { Elysia, type AnyElysia } from "elysia";
import { DEFAULT_USAGE_RETENTION_DAYS, FAIR_SHARE_DEFAULTS, errorHandler, homeLayout, internalClient, openApiPart } from "@svc/platform";
import type { GatewayEnv } from "./gateway-env";
import { authController, authGate, revokedSessions } from "./auth";
import { forwardController } from "./forward";
import { proxyController, proxyRoute } from "./proxy";
import { ServiceProxy } from "./proxy/service";
import { ActivityRecorder } from "./activity";
import { OnDemandStarts } from "./on-demand/ensure-serving";
import { statusController } from "./status";
import { docsController } from "./docs";
import { pagesController } from "./pages";
import { docPagesController } from "./doc-pages";
import { DocPages } from "./doc-pages/service";
import { guardCheck, requestGuard } from "./guard";
import { holdOpen, IDLE_TIMEOUT_SECONDS } from "./guard/hold-open";
import { PROXY_BODY_LIMIT } from "./guard/service";
import { mkdirSync } from "node:fs";
import { openGatewayDb } from "./db/connection";
import { checkpointOffThread } from "./db/wal-checkpoints";
import { KeyRing } from "./keys/service";
import { keysController } from "./keys";
import { v1Authenticator } from "./keys/v1-auth";
import { openAiController, openAiRoute } from "./openai";
import { ServiceCatalog } from "./openai/catalog";
import { OpenAiRouter } from "./openai/service";
import { KeyAdmission } from "./openai/admission/key-admission";
import { readRecordedUsage } from "./openai/admission/recorded-usage";
import { shortRetentionWarning } from "./openai/admission/retention-check";
import type { V1Outcome } from "./openai/outcome";
import { ReplicaChooser } from "./openai/replica-choice";
import { FairShareGate } from "./openai/fair-share/gate";
import { queueReport } from "./openai/fair-share/view";
import { RequestEndWatch } from "./openai/request-ends";
import { queuesController } from "./queues";
import { UsageStore } from "./usage/store";
import { endpointsController } from "./endpoints";
import { EndpointRegistry, HEALTH_EVERY_MS } from "./endpoints/service";
import { probeEndpoint } from "./endpoints/probe";
import { usageController } from "./usage";
import { GatewayMetrics } from "./metrics/service";
import { ResponseStore } from "./responses/store";
import { ResponsesApi } from "./responses/service";
import { metricsController } from "./metrics";
import { batchApiController } from "./batch-api";
import { batchApiRoutes } from "./batch-api/routes";
import { FilesService } from "./batch-api/files-service";
import { FileStore } from "./batch-api/file-store";
import { BatchApiService } from "./batch-api/batches-service";
import { BatchStore } from "./batch-api/batch-store";
import { requestUrl } from "./guard/request-url";
import { PROXY_PREFIX } from "./proxy/paths";
import { V1_PREFIX } from "./openai/paths";

/** How often usage (and stored responses) older than the retention period is deleted. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The gateway: the request guard (host, origin, body size) first, then auth, forwarding to the
 * services, and its own routes and the UI. A connection idle for IDLE_TIMEOUT_SECONDS is dropped,
 * except while an authorised request's answer is on its way (see holdOpen).
 */
export function createGateway({ settings, internalSecret, upstreams, authToken, usageRetentionDays = DEFAULT_USAGE_RETENTION_DAYS, fairShare = FAIR_SHARE_DEFAULTS }: GatewayEnv) {
  const client = internalClient(upstreams, internalSecret);
  // Idle clocks and on-demand starts, for /proxy/<id> and /v1 alike.
  const activity = new ActivityRecorder((report) => client.services.reportActivity(report));
  const starts = new OnDemandStarts(client.services);
  const layout = homeLayout(settings.homeDir);
  mkdirSync(layout.dataDir("gateway"), { recursive: true, mode: 0o700 });
  const db = openGatewayDb(layout.dataDir("gateway"));
  // Usage rows are committed every 20 ms under load: the log's checkpoints, which sync to disk, go to a thread of their own.
  const checkpoints = checkpointOffThread(db.$client);
  const keys = new KeyRing(db);
  const usage = new UsageStore(db, usageRetentionDays);
  // Stored responses (/v1/responses) are kept as long as usage.
  const responses = new ResponseStore(db, usageRetentionDays);
  const prune = () => {
    usage.prune();
    responses.prune();
  };
  prune();
  setInterval(prune, PRUNE_EVERY_MS).unref();
  let catalog: ServiceCatalog | undefined = undefined;
  const endpoints = new EndpointRegistry(db, join(layout.dataDir("gateway"), "endpoint-keys"), probeEndpoint, () => catalog?.invalidate());
  catalog = ServiceCatalog.fromClient(client, () => endpoints.routes());
  void endpoints.checkAll();
  setInterval(() => void endpoints.checkAll(), HEALTH_EVERY_MS).unref();
  let metrics: GatewayMetrics | undefined = undefined;
  // Keys' limits and budgets hold across a restart: what each key used is read back from the usage rows.
  const admission = new KeyAdmission();
  admission.restore(readRecordedUsage(db, Date.now()), keys.policies());
  const retentionWarning = shortRetentionWarning(keys.policies(), usageRetentionDays);
  if (retentionWarning) console.error(retentionWarning);
  /** Usage, a /v1 request's or a Batch API line's: recorded, and counted against its key's budgets. */
  const recordUsage = (outcome: V1Outcome) => {
    usage.record(outcome);
    admission.recorded(outcome);
  };
  const chooser = new ReplicaChooser();
  // A saturated model's requests wait their key's turn; a slot frees when a request on one of its services ends, /proxy's included.
  const slots = new FairShareGate({ balancer: chooser.balancer, settings: fairShare, routes: () => catalog.routes(), changed: () => activity.inFlightChanged() });
  const router = new OpenAiRouter(catalog, v1Authenticator(keys, authToken), (outcome) => {
    recordUsage(outcome);
    metrics?.observe(outcome);
  }, { lifecycle: { activity, starts }, responses: new ResponsesApi(responses), admission, slots, chooser, ends: new RequestEndWatch({ hurry: (id) => slots.waitsFor(id) }), endsAtOnce: (id) => slots.waitsFor(id) });
  const queues = (model?: string) => queueReport(slots, (id) => chooser.balancer.count(id), model);
  metrics = new GatewayMetrics(client, router.chooser, queues);
  // /proxy/<id> requests count in flight with /v1's.
  const proxy = new ServiceProxy(client, authToken, activity, starts, router.balancer);
  // The scaler of deployments reads the requests held per service, and those waiting per deployment, from the activity reports.
  activity.countInFlight(() => router.balancer.counts(), () => slots.waitingByDeployment());
  router.balancer.listen(() => activity.inFlightChanged());
  const fileStore = new FileStore(db, layout.uploadsDir);
  const batchApi = batchApiRoutes(
    new FilesService(fileStore),
    new BatchApiService({ batches: new BatchStore(db), files: fileStore, client, record: recordUsage, spentBudget: (caller) => admission.spentBudget(caller) }),
    v1Authenticator(keys, authToken),
  );
  const guard = guardCheck(settings);
  const authOptions = {
    token: authToken,
    tokenFile: layout.tokenFile,
    revokedSessionsFile: join(layout.dataDir("gateway"), "revoked-sessions"),
    allowedHosts: settings.allowedHosts,
  };
  const revoked = revokedSessions(authOptions);
  // /proxy/ and /v1/ are served by Bun's router, in front of the app, with the app's own checks (serverRoute); the app has them too, for app.handle.
  const checks = [guard, authGate(authOptions, revoked)];
  const proxied = proxyRoute(proxy, checks, () => app);
  const v1 = openAiRoute(router, checks, () => app);
  // normalize: false refuses unknown fields of the gateway's own API (/api/keys) instead of dropping them, as the services do.
  const app: AnyElysia = new Elysia({
    name: "gateway",
    normalize: false,
    serve: { idleTimeout: IDLE_TIMEOUT_SECONDS, maxRequestBodySize: PROXY_BODY_LIMIT, routes: { [`${PROXY_PREFIX}*`]: proxied, [`${V1_PREFIX}*`]: v1 } },
  })
    .use(errorHandler)
    // Usage rows are written in batches: what is still waiting goes in before the gateway exits.
    .onStop(() => {
      usage.flush();
      checkpoints.stop();
    })
    .use(requestGuard(guard))
    .onAfterHandle(({ set }) => {
      set.headers["x-content-type-options"] = "nosniff";
      set.headers["referrer-policy"] = "same-origin";
      set.headers["x-frame-options"] = "DENY";
    })
    .use(authController(authOptions, revoked))
    // Writes through the UI (a launch may build an image, a refresh scan a cluster) may take long: their body is parsed by now.
    .onBeforeHandle(({ request, server, set }) => {
      if (request.method !== "GET" && request.method !== "HEAD" && requestUrl(request).pathname !== "/login") Object.assign(set.headers, holdOpen(request, server));
    })
    // /proxy/ first: its many small requests then pass no other route's checks.
    .use(proxyController(proxy))
    .use(batchApiController(batchApi))
    .use(openAiController(router))
    // A service stopped, restarted or removed through the API leaves (or joins) /v1's list at once, also while it is stopping.
    .use(
      forwardController(upstreams, internalSecret, (request) => {
        if (request.method !== "GET" && requestUrl(request).pathname.startsWith("/api/services")) catalog.invalidate();
      }),
    )
    .use(statusController(settings, client))
    .use(keysController(keys))
    .use(endpointsController(endpoints))
    .use(usageController({ store: usage, keys, client }))
    .use(queuesController(queues))
    .use(metricsController(metrics))
    .use(docsController({ ownPart: () => openApiPart(app, (path) => path.startsWith("/api/")), client, debug: settings.debug }))
    .use(docPagesController(new DocPages(), !settings.debug))
    .use(pagesController(settings, client, proxy, keys, usage, endpoints, queues));
  return app;
}
