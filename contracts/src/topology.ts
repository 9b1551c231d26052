import type { InferenceServer } from "./service-values";
import type { RoutingMode } from "./deployments";

/**
 * How the application is split: which internal service owns which API prefix.
 * The gateway forwards by this table; the supervisor starts one process per entry.
 */
export const SERVICES = [
  { name: "profile-svc", apiPrefixes: ["/api/profiles"] },
  { name: "model-svc", apiPrefixes: ["/api/models"] },
  { name: "orchestrator-svc", apiPrefixes: ["/api/services", "/api/deployments", "/api/batches", "/api/images", "/api/runtimes"] },
] as const;

export type ServiceName = (typeof SERVICES)[number]["name"];

/** Header carrying the per-start secret that internal services require on every request. */
export const INTERNAL_SECRET_HEADER = "x-svc-internal-secret";

/** Route every internal service answers for liveness (behind the internal secret). */
export const SERVICE_HEALTH_PATH = "/health";

/** Route orchestrator-svc answers with what /api/info reports of it (see ServiceFacts). */
export const SERVICE_FACTS_PATH = "/facts";

/** Route orchestrator-svc answers with the live services (and the stopped on-demand ones) and how to reach them (see ServiceRoute), for the gateway's /v1. */
export const SERVICE_ROUTES_PATH = "/routes";

/** Route orchestrator-svc answers with its own Prometheus metrics (reconcile ticks), which the gateway's /metrics appends. */
export const SERVICE_METRICS_PATH = "/metrics";

/** Route every internal service serves its part of the OpenAPI document on. */
export const SERVICE_OPENAPI_PATH = "/openapi.json";

/** Environment variable that tells the gateway a service's base URL, e.g. SVC_UPSTREAM_PROFILE_SVC. */
export const upstreamVariable = (name: ServiceName) => `SVC_UPSTREAM_${name.toUpperCase().replaceAll("-", "_")}`;

/** The service that owns an API path, by its prefix (e.g. /api/models/… → model-svc). */
export function ownerOf(path: string): ServiceName | undefined {
  return SERVICES.find(({ apiPrefixes }) => apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)))?.name;
}

/**
 * A live service as the gateway's /v1 routes to it (internal route SERVICE_ROUTES_PATH, never
 * in the API document): the API's record plus the service's own API key, which the gateway sends
 * upstream so a person using /v1 never needs it.
 */
export interface ServiceRoute {
  id: string;
  name: string;
  task: "text-generation" | "speech-recognition";
  model: string;
  revision: string;
  profile: string;
  /** `outside`: an outside endpoint's model (svc endpoint add), not a service svc runs. */
  engine: "docker" | "slurm" | "outside";
  /** The inference server it runs: vLLM and SGLang answer /v1/responses themselves; the gateway translates it to chat completions for svc's runtimes. */
  server: InferenceServer;
  status: string;
  url: string | null;
  apiKey: string | null;
  createdAt: string;
  /** --on-demand: a request for it starts it again when it is STOPPED (such services are listed even then). */
  onDemand: boolean;
  /** Requests wait for it while it is on its way up (--on-demand or --renew) instead of getting 503 at once. */
  waits: boolean;
  /** Set for an outside endpoint's model: which endpoint, and why it is UNHEALTHY (else null). */
  outside?: { endpoint: string; reason: string | null };
  /**
   * Set for a replica of a deployment (svc run --replicas): which one, how /v1 picks among its
   * replicas, and whether the scaler is draining this one (no new request goes to it while another
   * replica of the deployment can take it; the scaler stops it once the gateway reports none in flight).
   */
  deployment?: { id: string; name: string; routing: RoutingMode; draining: boolean };
  /**
   * Requests the service takes at once: a deployment's `targetInflight` for its replicas, else its
   * engine's concurrency (svc's runtime: `--parallel`; vLLM and SGLang: 32). Past it on every
   * replica, /v1 requests for the model wait in the gateway's fair-share queue. Absent or null
   * (outside endpoints): not known, never queued.
   */
  capacity?: number | null;
  /** The LoRA adapters it serves on its model (repo ids): a request naming one goes to this service. */
  adapters?: string[];
}
