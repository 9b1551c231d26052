/**
 * Test support: the gateway's /v1 in front of real replicas of one deployment, without the rest of
 * svc. N bare text-generation runtimes (the svc CPU runtime) on a generated tiny model, their
 * routes served to the router as orchestrator-svc's would be (one deployment, its routing
 * switchable), the router listening on loopback with /metrics. For tests and the bench of routing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RoutingMode, ServiceRoute } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";
import { startRuntime, type RuntimeProcess } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { GatewayMetrics } from "../metrics/service";
import { ServiceCatalog } from "../openai/catalog";
import { OpenAiRouter } from "../openai/service";

export const RIG_MODEL = "svc-test/tiny-replicas";
export const RIG_DEPLOYMENT = "tiny-replicas";

export interface ReplicaRig {
  /** The gateway's base URL: POST `${url}/v1/chat/completions`, GET `${url}/metrics`. */
  url: string;
  /** The replicas' routes, in order (ids `replica-1`, …). */
  routes: ServiceRoute[];
  /** How the deployment's route says /v1 picks a replica from now on. */
  setRouting(mode: RoutingMode): void;
  stop(): Promise<void>;
}

/** No orchestrator-svc behind this gateway: its part of /metrics is left out. */
const noOrchestrator = { serviceRoute: async () => new Response("", { status: 503 }) } as unknown as InternalClient;

export async function startReplicaRig(replicas: number, routing: RoutingMode, runtimeArgs: string[] = []): Promise<ReplicaRig> {
  const cache = mkdtempSync(join(tmpdir(), "svc-replica-rig-"));
  const runtimes: RuntimeProcess[] = [];
  let server: ReturnType<typeof Bun.serve> | undefined;
  const stop = async () => {
    server?.stop(true);
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    rmSync(cache, { recursive: true, force: true });
  };
  try {
    const modelPath = makeTinyModels(cache).textGeneration;
    runtimes.push(...(await Promise.all(Array.from({ length: replicas }, () => startRuntime("text-generation", ["--model", modelPath, ...runtimeArgs])))));
    let mode = routing;
    const routes = (): ServiceRoute[] =>
      runtimes.map((runtime, i) => ({
        id: `replica-${i + 1}`,
        name: `${RIG_DEPLOYMENT}-${i + 1}`,
        task: "text-generation",
        model: RIG_MODEL,
        revision: "0123456789abcdef0123456789abcdef01234567",
        profile: "default",
        engine: "docker",
        server: "svc",
        status: "HEALTHY",
        url: runtime.url,
        apiKey: null,
        createdAt: new Date(0).toISOString(),
        onDemand: false,
        waits: false,
        deployment: { id: "deployment-1", name: RIG_DEPLOYMENT, routing: mode, draining: false },
      }));
    const catalog = new ServiceCatalog(async () => routes());
    let metrics: GatewayMetrics | undefined;
    const router = new OpenAiRouter(catalog, () => ({ kind: "anonymous" }), (outcome) => metrics?.observe(outcome));
    metrics = new GatewayMetrics(noOrchestrator, router.chooser);
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: async (request, self) => (new URL(request.url).pathname === "/metrics" ? new Response(await metrics!.text()) : router.handle(request, self)),
    });
    return {
      url: `http://127.0.0.1:${server.port}`,
      routes: routes(),
      setRouting(next) {
        mode = next;
        catalog.invalidate();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
